/* Bandwidth: per size a timed loop of iterations, then results are shared. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "fabric/mem.h"
#include "cxd/session.h"
#include "run.h"
#include "session/post.h"

static void prepare_size(struct cxd_sess *s, uint64_t size)
{
	s->gran = s->ops->slot ? s->ops->slot :
		  cxd_roundup(size, s->run->buf_align);
	s->off = 0;
	s->ops->post_for(s, size);
}

static bool done(const struct cxd_sess *s, uint64_t iters, uint64_t start)
{
	if (cxd_run_has(s->run, CXD_RUN_DURATION))
		return cxd_now_ns() - start >= s->run->duration_s * 1000000000ULL;
	return iters >= s->run->iters;
}

/* The timed loop: nothing here but posting and completion polling. Kept
 * out of line: bench/callgrind_share.py measures from its entry. */
static __attribute__((noinline)) int
timed_loop(struct cxd_sess *s, uint64_t size, struct cxd_span *sp)
{
	uint64_t iters = 0, start;
	int ret;

	prepare_size(s, size);
	start = cxd_now_ns();
	do {
		ret = s->ops->bw_iter(s, size);
		if (ret)
			return ret;
		iters++;
	} while (!done(s, iters, start));
	sp->elapsed_ns = cxd_now_ns() - start;
	sp->count = iters * s->run->list_size;
	return 0;
}

/* A side's figures plus the peer's, as the originals combine them. */
static void combine(const struct cxd_sess *s, uint64_t size,
		    const struct cxd_span *me, const struct cxd_result_msg *peer,
		    struct cxd_result *res)
{
	struct cxd_span theirs = { peer->count, peer->elapsed_ns };

	memset(res, 0, sizeof(*res));
	res->size = size;
	res->count = s->active ? me->count : peer->count;
	res->count_shown = s->active;
	res->elapsed_ns = s->active ? me->elapsed_ns : peer->elapsed_ns;
	res->verify = -1;
	res->validated = -1;
	cxd_bw_combine(res, cxd_packets(s->ops->amo, size),
		       s->active ? me : NULL, &theirs);
}

static int share(struct cxd_sess *s, uint64_t size, const struct cxd_span *me,
		 struct cxd_result_msg *peer)
{
	struct cxd_result_msg m = { .size = size, .count = me->count,
				    .elapsed_ns = me->elapsed_ns };

	cxd_sess_enter(s, "the result exchange");
	return cxd_sess_share(s, &m, peer);
}

static int one_size(struct cxd_sess *s, uint64_t size, struct cxd_report *rep,
		    struct cxd_progress *prog)
{
	struct cxd_span me = { 0, 0 };
	struct cxd_result_msg peer;
	struct cxd_result res;
	int ret = 0;

	ret = cxd_validate_prepare(s, size);
	if (ret == 0)
		ret = cxd_sess_barrier(s, "the pre-run barrier");
	cxd_sess_enter(s, "the timed loop");
	/* Both sides: a passive side's progress calls may move data too. */
	cxd_post_inflight(s, size * s->run->list_size *
			  (cxd_run_has(s->run, CXD_RUN_BIDIR) ? 2 : 1));
	if (ret == 0 && s->active)
		ret = timed_loop(s, size, &me);
	/* A passive side waits here while its peer runs the loop. */
	if (ret == 0)
		ret = cxd_sess_barrier(s, "the timed loop");
	if (ret == 0)
		ret = share(s, size, &me, &peer);
	if (ret)
		return ret;
	combine(s, size, &me, &peer, &res);
	if (s->ops->finish && (ret = s->ops->finish(s, &res)) != 0)
		return ret;
	cxd_progress_clear(prog);
	ret = cxd_validate_finish(s, size, me.count, peer.count, &res);
	return ret ? ret : cxd_sess_emit(s, rep, &res);
}

void cxd_runner_progress(struct cxd_sess *s, struct cxd_progress *p)
{
	bool on = cxd_progress_wanted(isatty(STDERR_FILENO), s->is_client);

	cxd_progress_init(p, on ? stderr : NULL, s->tool->name,
			  s->run->min_size, s->run->max_size,
			  cxd_run_has(s->run, CXD_RUN_DURATION) ?
			  s->run->duration_s * 1000000000ULL : 0, cxd_now_ns());
}

int cxd_runner_bw(struct cxd_sess *s, struct cxd_report *rep)
{
	struct cxd_progress prog;
	int ret = 0;

	cxd_runner_progress(s, &prog);
	for (uint64_t size = s->run->min_size;
	     ret == 0 && size <= s->run->max_size; size *= 2) {
		cxd_progress_size(&prog, size, cxd_now_ns());
		ret = one_size(s, size, rep, &prog);
	}
	cxd_progress_clear(&prog); /* before an error message */
	return ret;
}

int cxd_runner_loopback(struct cxd_sess *s, struct cxd_report *rep)
{
	/* Every write goes to offset 0 of the target, as the original. */
	s->wrap = 0;
	return one_size(s, s->run->min_size, rep, &(struct cxd_progress){ 0 });
}
