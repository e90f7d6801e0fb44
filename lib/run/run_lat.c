/* SPDX-License-Identifier: BSD-3-Clause */
/* Latency: one operation at a time, timed from post to its completion. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "session/session.h"
#include "base/stats.h"
#include "run.h"
#include "session/post.h"
#include "windows.h"

struct lat_run {
	struct cxd_lat_stats *stats;
	struct cxd_lat_stats *gaps; /* the inter-iteration gaps kept */
	uint64_t *samples; /* --report-all: every measured latency */
	uint64_t nsamples;
	struct cxd_winrec win; /* --interval */
	uint64_t answered; /* responder: data exchanges, warmup included */
	struct cxd_progress prog;
};

/*
 * Busy-wait: a sleep would add scheduler noise; measured from `from`.
 * Returns when the wait ended, so the gap actually kept can be reported
 * (the originals' active_sleep kept a fraction of the requested gap).
 */
static uint64_t gap_wait(uint64_t from_ns, uint64_t gap_us)
{
	uint64_t until = from_ns + gap_us * 1000ULL, now;

	while ((now = cxd_now_ns()) < until)
		;
	return now;
}

static bool lat_done(const struct cxd_sess *s, uint64_t measured,
		     uint64_t start, uint64_t now)
{
	if (cxd_run_has(s->run, CXD_RUN_DURATION))
		return start &&
		       now - start >= s->run->duration_s * 1000000000ULL;
	return measured >= s->run->iters;
}

/*
 * The side that decides how many iterations run (client, or both). One
 * clock read per iteration: the end of one operation (t1) is the start
 * of the next when the gap is 0; with a gap, the next starts when the
 * wait ends. Kept out of line: bench/callgrind_share.py measures from
 * its entry.
 */
static __attribute__((noinline)) int lat_loop(struct cxd_sess *s,
					      uint64_t size,
					      struct lat_run *lr)
{
	uint64_t i = 0, measured = 0, start = 0, t0, t1, t2;
	uint64_t gap = s->run->latency_gap_us;
	/* A ping-pong's latency is half its round trip. */
	unsigned half = cxd_tool_is(s->tool, CXD_TRAIT_PING_PONG);
	bool timed;
	int ret;

	s->ops->post_for(s, size);
	t0 = cxd_now_ns();
	while (!lat_done(s, measured, start, t0)) {
		ret = s->ops->lat_one(s, size, false);
		t1 = cxd_now_ns();
		if (ret < 0)
			return ret;
		timed = i++ >= s->run->warmup;
		if (timed) {
			uint64_t ns = (t1 - t0) >> half;

			if (start == 0) {
				start = t0; /* duration counts from here */
				cxd_win_start(&lr->win, size, start);
			}
			cxd_stats_add(lr->stats, ns);
			if (lr->samples && measured < lr->nsamples)
				lr->samples[measured] = ns;
			measured++;
		}
		if (t1 >= lr->win.next) /* UINT64_MAX without --interval */
			cxd_win_pass(&lr->win, t1, 0, lr->stats);
		t2 = gap ? gap_wait(t1, gap) : t1;
		if (timed)
			cxd_stats_add(lr->gaps, t2 - t1);
		t0 = t2;
	}
	cxd_win_finish(&lr->win, t0, 0, lr->stats);
	/* Ping-pong tools: one unmeasured exchange tells the peer to stop. */
	return cxd_tool_is(s->tool, CXD_TRAIT_PING_PONG) ?
	       s->ops->lat_one(s, size, true) : 0;
}

/*
 * The responding side of a ping-pong runs until the final marker. It
 * counts the exchanges it answered, so that its report can show it did
 * as many iterations as the client (the point of the final marker).
 */
static int lat_respond(struct cxd_sess *s, uint64_t size, struct lat_run *lr)
{
	int ret;

	lr->answered = 0;
	s->ops->post_for(s, size);
	while ((ret = s->ops->lat_one(s, size, false)) == 0)
		lr->answered++;
	return ret < 0 ? ret : 0;
}

/* Exchanges this side completed: measured ones, warmup excluded. */
static uint64_t own_count(const struct cxd_sess *s, const struct lat_run *lr)
{
	if (s->is_client)
		return lr->stats->n;
	if (!s->active)
		return 0; /* a passive target counts nothing */
	return lr->answered > s->run->warmup ? lr->answered - s->run->warmup : 0;
}

/*
 * The client sends its count, the responder its own: a ping-pong whose
 * sides disagree did not run the same iterations, and says so.
 */
static int lat_share(struct cxd_sess *s, uint64_t size, struct lat_run *lr,
		     struct cxd_result_msg *peer)
{
	struct cxd_result_msg m = { .size = size, .count = own_count(s, lr) };
	int ret;

	cxd_sess_enter(s, "the result exchange");
	ret = cxd_sess_share(s, &m, peer);
	if (ret == 0 && cxd_tool_is(s->tool, CXD_TRAIT_PING_PONG) &&
	    peer->count != m.count)
		return cxd_sess_fail(s, -EPROTO, "%s did %llu exchanges of "
				     "%llu bytes, this side %llu",
				     cxd_sess_who(s),
				     (unsigned long long) peer->count,
				     (unsigned long long) size,
				     (unsigned long long) m.count);
	return ret;
}

static int lat_size(struct cxd_sess *s, uint64_t size, struct lat_run *lr,
		    struct cxd_report *rep)
{
	struct cxd_result_msg peer;
	struct cxd_result res;
	int ret;

	cxd_stats_reset(lr->stats);
	cxd_stats_reset(lr->gaps);
	ret = cxd_validate_prepare(s, size);
	if (ret == 0)
		ret = cxd_sess_barrier(s, "the pre-run barrier");
	cxd_sess_enter(s, "the timed loop");
	cxd_post_inflight(s, size); /* one operation at a time */
	if (ret == 0 && s->is_client)
		ret = lat_loop(s, size, lr);
	else if (ret == 0 && s->active)
		ret = lat_respond(s, size, lr);
	/* A passive target waits here while the client runs its loop. */
	if (ret == 0)
		ret = cxd_sess_barrier(s, "the timed loop");
	if (ret == 0)
		ret = lat_share(s, size, lr, &peer);
	if (ret)
		return ret;
	memset(&res, 0, sizeof(res));
	res.size = size;
	res.count = own_count(s, lr);
	res.count_shown = s->active; /* a passive target did no operation */
	res.verify = -1;
	res.validated = -1;
	if (s->is_client) {
		res.lat = lr->stats;
		res.gaps = lr->gaps;
		res.samples = lr->samples;
		res.nsamples = lr->samples ? lr->stats->n : 0;
		res.win = lr->win.step ? &lr->win.win : NULL;
	}
	if (s->ops->finish && (ret = s->ops->finish(s, &res)) != 0)
		return ret;
	cxd_progress_clear(&lr->prog);
	/* Every latency operation uses offset 0, warmup included: the
	 * counts only tell whether any data arrived to check. */
	ret = cxd_validate_finish(s, size, own_count(s, lr) + s->run->warmup,
				  peer.count + s->run->warmup, &res);
	return ret ? ret : cxd_sess_emit(s, rep, &res);
}

int cxd_runner_lat(struct cxd_sess *s, struct cxd_report *rep)
{
	struct lat_run lr = { 0 };
	int ret = 0;

	lr.stats = malloc(sizeof(*lr.stats));
	lr.gaps = malloc(sizeof(*lr.gaps));
	if (lr.stats == NULL || lr.gaps == NULL ||
	    cxd_win_init(s, &lr.win, true) != 0) {
		free(lr.stats);
		free(lr.gaps);
		return s->err[0] ? -ENOMEM :
		       cxd_sess_fail(s, -ENOMEM, "out of memory");
	}
	if (s->is_client && cxd_run_has(s->run, CXD_RUN_REPORT_ALL)) {
		lr.nsamples = s->run->iters;
		lr.samples = lr.nsamples <= SIZE_MAX / 8 ?
			     malloc(lr.nsamples * 8) : NULL;
		if (lr.samples == NULL)
			ret = cxd_sess_fail(s, -ENOMEM, "--report-all cannot "
					    "keep %llu latencies in memory",
					    (unsigned long long) lr.nsamples);
	}
	cxd_runner_progress(s, &lr.prog);
	for (uint64_t size = s->run->min_size;
	     ret == 0 && size <= s->run->max_size; size *= 2) {
		cxd_progress_size(&lr.prog, size, cxd_now_ns());
		ret = lat_size(s, size, &lr, rep);
	}
	cxd_progress_clear(&lr.prog); /* before an error message */
	free(lr.samples);
	cxd_win_free(&lr.win);
	free(lr.gaps);
	free(lr.stats);
	return ret;
}
