/* SPDX-License-Identifier: BSD-3-Clause */
/* Progress of a run in phases of rounds (see progress_rounds.h). */
#include <string.h>

#include "progress_rounds.h"

bool cxd_rprog_wanted(enum cxd_rprog_want want, bool json, bool stderr_tty,
		      bool launcher_tty)
{
	if (want != CXD_RPROG_AUTO)
		return want == CXD_RPROG_ON;
	return !json && (stderr_tty || launcher_tty);
}

void cxd_rprog_place(unsigned mask, unsigned k, unsigned *x, unsigned *y)
{
	*x = *y = 0;
	for (unsigned i = 0; i < 32; i++) {
		if (!(mask & (1u << i)))
			continue;
		++*y;
		if (i <= k)
			++*x;
	}
}

uint64_t cxd_rprog_left_ns(uint64_t spent_ns, unsigned done,
			   unsigned planned)
{
	double left;

	if (done == 0 || planned == 0)
		return UINT64_MAX;
	if (planned <= done)
		return 0;
	left = (double) spent_ns / done * (double) (planned - done);
	return left >= 1.8e19 ? UINT64_MAX : (uint64_t) left;
}

/* The round under way, 1-based: after the last one, the last one. */
static unsigned round_now(const struct cxd_rprog *p)
{
	unsigned known = p->counted ? p->planned : p->base + p->cur;

	return p->done + 1 < known ? p->done + 1 : known;
}

size_t cxd_rprog_format(char *buf, size_t len, const struct cxd_rprog *p,
			uint64_t now_ns)
{
	uint64_t left = cxd_rprog_left_ns(now_ns - p->phase_ns, p->done,
					  p->planned);
	char t[32] = "", rounds[64] = "";
	int w;

	if (p->counted && p->planned)
		snprintf(rounds, sizeof(rounds), ", round %u of %u",
			 round_now(p), p->planned);
	else if (round_now(p))
		snprintf(rounds, sizeof(rounds), ", round %u", round_now(p));
	if (p->counted && left != UINT64_MAX)
		cxd_progress_fmt_time(t, sizeof(t), left);
	for (int about = 1; about >= 0; about--) {
		w = snprintf(buf, len, "%s: %s (phase %u of %u)%s%s%s%s",
			     p->tool, p->phase ? p->phase : "starting", p->x,
			     p->y, rounds, !t[0] ? "" : about ? ", about " :
			     ", ", t, t[0] ? " left" : "");
		/* A line wider than the terminal would wrap, and '\r' then
		 * rewrites only its last row: "about" goes first. */
		if (w < CXD_RPROG_COLS)
			break;
	}
	if (w < 0)
		return 0;
	return (size_t) w < len ? (size_t) w : len - 1;
}

void cxd_rprog_init(struct cxd_rprog *p, FILE *out, const char *tool,
		    uint64_t now_ns)
{
	memset(p, 0, sizeof(*p));
	p->out = out;
	p->tool = tool;
	p->start_ns = p->phase_ns = now_ns;
}

/* Drawn when the run is old enough and the last draw far enough back. */
static void draw_if_due(struct cxd_rprog *p, uint64_t now_ns)
{
	char line[CXD_PROGRESS_LINE];
	size_t len;

	if (now_ns - p->start_ns < CXD_PROGRESS_AFTER_NS ||
	    (p->shown && now_ns - p->drawn_ns < CXD_RPROG_EVERY_NS))
		return;
	len = cxd_rprog_format(line, sizeof(line), p, now_ns);
	cxd_progress_draw(p->out, line, len, &p->drawn);
	p->widest = p->drawn > p->widest ? p->drawn : p->widest;
	p->drawn_ns = now_ns;
	p->shown = true;
}

void cxd_rprog_phase(struct cxd_rprog *p, const char *name, unsigned x,
		     unsigned y, bool counted, uint64_t now_ns)
{
	if (p == NULL || p->out == NULL)
		return;
	p->phase = name;
	p->x = x;
	p->y = y;
	p->counted = counted;
	p->done = p->planned = p->base = p->cur = 0;
	p->phase_ns = now_ns;
	/* A new phase is news: shown now, not up to EVERY_NS late. */
	p->shown = false;
	draw_if_due(p, now_ns);
}

void cxd_rprog_expect(struct cxd_rprog *p, unsigned n)
{
	if (p == NULL || p->out == NULL)
		return;
	p->planned = p->done + n;
}

void cxd_rprog_plan(struct cxd_rprog *p, unsigned nrounds)
{
	if (p == NULL || p->out == NULL)
		return;
	p->base = p->done;
	p->cur = nrounds;
	/* A plan nobody announced counts from when it starts. */
	if (p->base + nrounds > p->planned)
		p->planned = p->base + nrounds;
}

void cxd_rprog_plan_end(struct cxd_rprog *p, uint64_t now_ns)
{
	if (p == NULL || p->out == NULL)
		return;
	p->done = p->base + p->cur;
	draw_if_due(p, now_ns);
}

void cxd_rprog_round(struct cxd_rprog *p, unsigned r, uint64_t now_ns)
{
	if (p == NULL || p->out == NULL)
		return;
	/* This rank's rounds only: the ones it sat out count as over. */
	p->done = p->base + (r + 1 < p->cur ? r + 1 : p->cur);
	draw_if_due(p, now_ns);
}

void cxd_rprog_end(struct cxd_rprog *p)
{
	if (p == NULL || p->out == NULL)
		return;
	cxd_progress_erase(p->out, &p->drawn);
	p->out = NULL;
}
