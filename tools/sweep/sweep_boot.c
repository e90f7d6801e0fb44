/* cxi_sweep: MPI bootstrap, the fabric for every rank, bounded waits. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <mpi.h>
#include <rdma/fabric.h>

#include "base/testaid.h"
#include "sweep_mpi.h"

/* A fatal error: name this rank and host, end every rank (bounded). */
void sw_die(struct sw *w, const char *fmt, ...)
{
	char msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "cxi_sweep: rank %d (%s): %s\n", w->rank,
		w->ranks ? w->ranks[w->rank].host : "?", msg);
	fflush(stderr);
	MPI_Abort(MPI_COMM_WORLD, 1);
	exit(1); /* MPI_Abort does not return; keep the compiler sure */
}

void sw_nap(long ns)
{
	struct timespec ts = { 0, ns };

	nanosleep(&ts, NULL);
}

/*
 * Wait for requests without spinning: ranks may outnumber cores. Inside
 * a pair the target's provider must be kept moving (tcp and shm progress
 * only when called), so it polls but yields the CPU at every turn;
 * between pairs a rank sleeps.
 */
/* One request at a time into a real status: GCC 12 reads MPICH's
 * MPI_STATUSES_IGNORE (a cast constant) as a zero-size array and fails
 * the build under -Werror. Finished requests become MPI_REQUEST_NULL. */
static bool all_done(MPI_Request *r, int nr)
{
	MPI_Status st;
	int flag;

	for (int i = 0; i < nr; i++) {
		MPI_Test(&r[i], &flag, &st);
		if (!flag)
			return false;
	}
	return true;
}

int sw_wait(struct sw *w, MPI_Request *r, int nr, uint64_t bound_ns,
	    bool progress)
{
	uint64_t start = cxd_now_ns(), now;
	long nap_ns = 50000L;

	for (;;) {
		if (all_done(r, nr))
			return 0;
		if (progress && w->s.fab)
			(void) w->s.ops->progress(&w->s);
		now = cxd_now_ns();
		if (now - start > bound_ns)
			return -ETIMEDOUT;
		if (progress) {
			sched_yield();
		} else {
			/* Idle: sleep longer the longer it lasts (5 ms cap). */
			sw_nap(nap_ns);
			nap_ns = nap_ns < 5000000L ? nap_ns * 2 : nap_ns;
		}
	}
}

/* A collective's end, bounded: a rank that stalls cannot hold the rest. */
void sw_coll_wait(struct sw *w, MPI_Request *req, const char *what)
{
	if (sw_wait(w, req, 1, w->wait_ns, false) != 0)
		sw_die(w, "%s did not finish within %llu s: a rank stalled or "
		       "died", what,
		       (unsigned long long) (w->wait_ns / 1000000000ULL));
}

void sw_bcast(struct sw *w, void *buf, int count, MPI_Datatype t,
	      const char *what)
{
	MPI_Request q;

	MPI_Ibcast(buf, count, t, 0, MPI_COMM_WORLD, &q);
	sw_coll_wait(w, &q, what);
}

void sw_gather(struct sw *w, const void *mine, int count, MPI_Datatype t,
	       void *all, const char *what)
{
	MPI_Request q;

	MPI_Igather(mine, count, t, all, count, t, 0, MPI_COMM_WORLD, &q);
	sw_coll_wait(w, &q, what);
}

static void allgather(struct sw *w, const void *mine, void *all, int len,
		      const char *what)
{
	MPI_Request q;

	MPI_Iallgather(mine, len, MPI_BYTE, all, len, MPI_BYTE,
		       MPI_COMM_WORLD, &q);
	sw_coll_wait(w, &q, what);
}

void sw_init(struct sw *w)
{
	memset(w, 0, sizeof(*w));
	MPI_Comm_rank(MPI_COMM_WORLD, &w->rank);
	MPI_Comm_size(MPI_COMM_WORLD, &w->n);
	w->tool = cxd_tool_find("cxi_sweep");
	w->bw_tool = cxd_tool_find("cxi_write_bw");
	w->lat_tool = cxd_tool_find("cxi_write_lat");
	w->partner = -1;
	w->coord_only = cxd_testaid_coord_only && cxd_testaid_coord_only();
}

void sw_free(struct sw *w)
{
	if (w->has_matrix) /* a run that ended before writing it */
		MPI_File_close(&w->mfh);
	cxd_sess_close(&w->s);
	free(w->ranks);
	free(w->addrs);
	free(w->fiaddr);
	free(w->bw_row);
	free(w->lat_row);
	free(w->busy_row);
	free(w->round_s);
	for (int m = 0; m < 2; m++) {
		free(w->rep[m]);
		free(w->spread[m]);
	}
	if (w->has_base)
		cxd_base_free(&w->base);
	if (w->has_topo)
		cxd_topo_free(&w->topo);
	free((int *) w->tmap.sw);
	free((int *) w->tmap.grp);
}

void *sw_alloc(struct sw *w, size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz);

	if (p == NULL)
		sw_die(w, "out of memory");
	return p;
}

/* This rank's host name; a test copy's namespace may stand for a node. */
void sw_host_name(struct sw *w, char *host, size_t len)
{
	int n = 0;

	MPI_Get_processor_name(host, &n);
	if (cxd_testaid_node_name)
		cxd_testaid_node_name(w->rank, host, len);
}

struct host_cpus {
	char host[256];
	int cpus;
};

/* Ranks sharing a host's cores: measure fewer pairs at once (a waiting
 * side needs a core to answer, and timings would measure the scheduler). */
static void share_hosts(struct sw *w, bool *same_p)
{
	struct host_cpus me = { "", (int) sysconf(_SC_NPROCESSORS_ONLN) };
	struct host_cpus *all = sw_alloc(w, (size_t) w->n, sizeof(me));
	int *host = sw_alloc(w, (size_t) w->n, sizeof(int));
	int *cpus = sw_alloc(w, (size_t) w->n, sizeof(int));

	sw_host_name(w, me.host, sizeof(me.host));
	allgather(w, &me, all, sizeof(me), "the host exchange");
	*same_p = true;
	for (int i = 0; i < w->n; i++) {
		int h = 0;

		while (strcmp(all[h].host, all[i].host) != 0)
			h++;
		host[i] = h;
		cpus[h] = all[h].cpus > 0 ? all[h].cpus : 1;
		*same_p &= h == 0;
	}
	/* This rank's place among its host's ranks (one per NIC). */
	for (int i = 0; i < w->n; i++) {
		w->nlocal += host[i] == host[w->rank];
		w->local += i < w->rank && host[i] == host[w->rank];
	}
	w->pairs_at_once = w->cfg.sweep.max_pairs ?
		(int) (w->cfg.sweep.max_pairs < (uint64_t) w->n ?
		       w->cfg.sweep.max_pairs : (uint64_t) w->n) :
		cxd_sweep_pairs_at_once(w->n, host, cpus);
	free(all);
	free(host);
	free(cpus);
}

/* Rank 0 picks the provider, so every rank opens the same one. */
static void pick_provider(struct sw *w)
{
	char name[CXD_NAME_LEN] = "", err[CXD_ERR_LEN] = "";
	bool same = true;

	share_hosts(w, &same);
	if (w->rank == 0) {
		if (w->cfg.local.provider[0])
			cxd_fabric_core_name(w->cfg.local.provider, name,
					     sizeof(name));
		else if (cxd_fabric_pick(w->bw_tool->ops->facts.caps, same, name,
					 sizeof(name), err, sizeof(err)) != 0)
			sw_die(w, "%s", err);
	}
	sw_bcast(w, name, sizeof(name), MPI_CHAR, "the provider choice");
	snprintf(w->bw_run.provider, sizeof(w->bw_run.provider), "%s", name);
	snprintf(w->lat_run.provider, sizeof(w->lat_run.provider), "%s", name);
}


/* Test copies only (base/testaid.h): a namespace of its own per rank. */
static void test_netns(struct sw *w)
{
	char err[256] = "";

	if (cxd_testaid_netns && cxd_testaid_netns(w->rank, err, sizeof(err)))
		sw_die(w, "%s", err);
}

/* Open the endpoint, swap addresses with every rank, fill the AV. */
static void open_fabric(struct sw *w)
{
	struct cxd_sess *s = &w->s;
	struct cxd_sweep_rank me;
	struct cxd_addr_msg mine;

	memset(&me, 0, sizeof(me));
	sw_host_name(w, me.host, sizeof(me.host));
	s->tool = w->bw_tool;
	s->cfg = &w->cfg;
	s->run = &w->bw_run;
	s->ops = s->tool->ops;
	s->is_client = true;
	if (cxd_sess_open_local(s, &mine) != 0)
		sw_die(w, "%s", s->err);
	cxd_fabric_straddr(s->fab, mine.addr, me.addr, sizeof(me.addr));
	snprintf(me.nic, sizeof(me.nic), "%s",
		 s->fab->info->domain_attr->name ?
		 s->fab->info->domain_attr->name : "?");
	w->ranks = sw_alloc(w, (size_t) w->n, sizeof(*w->ranks));
	w->addrs = sw_alloc(w, (size_t) w->n, sizeof(*w->addrs));
	w->fiaddr = sw_alloc(w, (size_t) w->n, sizeof(*w->fiaddr));
	allgather(w, &me, w->ranks, sizeof(me), "the host name exchange");
	allgather(w, &mine, w->addrs, sizeof(mine), "the address exchange");
	for (int i = 0; i < w->n; i++) {
		if (i == w->rank)
			continue;
		if (cxd_fabric_add_peer(s->fab, w->addrs[i].addr, s->err,
					sizeof(s->err)) != 0)
			sw_die(w, "rank %d (%s): %s", i, w->ranks[i].host, s->err);
		w->fiaddr[i] = s->fab->peer;
	}
}

void sw_boot_provider(struct sw *w)
{
	test_netns(w);
	pick_provider(w);
}

void sw_boot_fabric(struct sw *w)
{
	open_fabric(w);
}
