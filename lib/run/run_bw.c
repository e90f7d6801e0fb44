/* SPDX-License-Identifier: BSD-3-Clause */
/* Bandwidth: per size a timed loop of iterations, then results are shared. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "fabric/mem.h"
#include "session/session.h"
#include "run.h"
#include "session/post.h"
#include "windows.h"

/* Duration runs read the clock anyway: a window closes when it shows a
 * boundary passed (wr->next is UINT64_MAX without --interval). */
static bool done(const struct cxd_sess *s, uint64_t iters, uint64_t start,
		 struct cxd_winrec *wr)
{
	uint64_t now;

	if (!cxd_run_has(s->run, CXD_RUN_DURATION))
		return iters >= s->run->iters;
	now = cxd_now_ns();
	if (now >= wr->next)
		cxd_win_pass(wr, now, iters * s->run->list_size, NULL);
	return now - start >= s->run->duration_s * 1000000000ULL;
}

/* The timed loop: nothing here but posting and completion polling. Kept
 * out of line: bench/callgrind_share.py measures from its entry. */
static __attribute__((noinline)) int
timed_loop(struct cxd_sess *s, uint64_t size, struct cxd_span *sp,
	   struct cxd_winrec *wr)
{
	uint64_t iters = 0, start, end;
	int ret;

	cxd_post_prepare(s, size);
	start = cxd_now_ns();
	cxd_win_start(wr, size, start);
	do {
		ret = s->ops->bw_iter(s, size);
		if (ret)
			return ret;
		iters++;
	} while (!done(s, iters, start, wr));
	end = cxd_now_ns();
	sp->elapsed_ns = end - start;
	sp->count = iters * s->run->list_size;
	cxd_win_finish(wr, end, sp->count, NULL);
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
	cxd_bw_combine(res, cxd_packets(s->ops->facts.amo, size),
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
		    struct cxd_progress *prog, struct cxd_winrec *wr)
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
		ret = timed_loop(s, size, &me, wr);
	/* A passive side waits here while its peer runs the loop. */
	if (ret == 0)
		ret = cxd_sess_barrier(s, "the timed loop");
	if (ret == 0)
		ret = share(s, size, &me, &peer);
	if (ret)
		return ret;
	combine(s, size, &me, &peer, &res);
	if (s->active && wr->step)
		res.win = &wr->win;
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
	struct cxd_winrec wr;
	int ret = cxd_win_init(s, &wr, false);

	cxd_runner_progress(s, &prog);
	for (uint64_t size = s->run->min_size;
	     ret == 0 && size <= s->run->max_size; size *= 2) {
		cxd_progress_size(&prog, size, cxd_now_ns());
		ret = one_size(s, size, rep, &prog, &wr);
	}
	cxd_progress_clear(&prog); /* before an error message */
	cxd_win_free(&wr);
	return ret;
}

int cxd_runner_loopback(struct cxd_sess *s, struct cxd_report *rep)
{
	struct cxd_winrec wr;
	int ret = cxd_win_init(s, &wr, false);

	/* Every write goes to offset 0 of the target, as the original. */
	s->wrap = 0;
	if (ret == 0)
		ret = one_size(s, s->run->min_size, rep,
			       &(struct cxd_progress){ 0 }, &wr);
	cxd_win_free(&wr);
	return ret;
}
