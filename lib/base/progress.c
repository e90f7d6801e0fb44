/* SPDX-License-Identifier: BSD-3-Clause */
/* Progress of a multi-size run on stderr (see cxd/progress.h). */
#include <string.h>

#include "progress.h"

bool cxd_progress_wanted(bool stderr_tty, bool is_client)
{
	/* With --local the server shares the terminal: one line, not two. */
	return stderr_tty && is_client;
}

unsigned cxd_progress_nsizes(uint64_t min_size, uint64_t max_size)
{
	unsigned n = 0;

	for (uint64_t s = min_size; s && s <= max_size; s *= 2) {
		n++;
		if (s > UINT64_MAX / 2)
			break;
	}
	return n;
}

uint64_t cxd_progress_left_ns(uint64_t size, uint64_t max_size,
			      uint64_t duration_ns, uint64_t t_prev,
			      uint64_t t_last)
{
	double a, b = 0.0, left = 0.0;

	if (duration_ns)
		return duration_ns * cxd_progress_nsizes(size, max_size);
	if (t_last == 0 || size < 2)
		return UINT64_MAX;
	/* Two points give slope and intercept; one gives a constant. */
	if (t_prev && t_last > t_prev && size >= 4)
		b = (double) (t_last - t_prev) / (double) (size / 4);
	a = (double) t_last - b * (double) (size / 2);
	if (a < 0.0)
		a = 0.0;
	for (uint64_t s = size; s && s <= max_size; s *= 2) {
		left += a + b * (double) s;
		if (s > UINT64_MAX / 2)
			break;
	}
	return left >= 1.8e19 ? UINT64_MAX : (uint64_t) left;
}

void cxd_progress_fmt_time(char *buf, size_t len, uint64_t ns)
{
	uint64_t s = ns / 1000000000ULL;

	if (s < 60)
		snprintf(buf, len, "%.1f s", (double) ns / 1e9);
	else if (s < 3600)
		snprintf(buf, len, "%llu min %02llu s", (unsigned long long) s / 60,
			 (unsigned long long) s % 60);
	else
		snprintf(buf, len, "%llu h %02llu min",
			 (unsigned long long) s / 3600,
			 (unsigned long long) s / 60 % 60);
}

static void fmt_size(char *buf, size_t len, uint64_t size)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB" };
	unsigned u = 0;

	while (u < 3 && size >= 1024 && size % 1024 == 0) {
		size /= 1024;
		u++;
	}
	snprintf(buf, len, "%llu %s", (unsigned long long) size, unit[u]);
}

size_t cxd_progress_format(char *buf, size_t len, const char *name,
			   unsigned k, unsigned n, uint64_t size,
			   uint64_t elapsed_ns, uint64_t left_ns)
{
	char sz[32], el[32], left[48] = "estimating time left";
	int w;

	fmt_size(sz, sizeof(sz), size);
	cxd_progress_fmt_time(el, sizeof(el), elapsed_ns);
	if (left_ns != UINT64_MAX) {
		char t[32];

		cxd_progress_fmt_time(t, sizeof(t), left_ns);
		snprintf(left, sizeof(left), "about %s left", t);
	}
	w = snprintf(buf, len, "%s: size %u of %u (%s), %s elapsed, %s", name,
		     k, n, sz, el, left);
	if (w < 0)
		return 0;
	return (size_t) w < len ? (size_t) w : len - 1;
}

void cxd_progress_init(struct cxd_progress *p, FILE *out, const char *name,
		       uint64_t min_size, uint64_t max_size,
		       uint64_t duration_ns, uint64_t now_ns)
{
	memset(p, 0, sizeof(*p));
	p->out = out;
	p->name = name;
	p->n = cxd_progress_nsizes(min_size, max_size);
	p->max_size = max_size;
	p->duration_ns = duration_ns;
	p->start_ns = now_ns;
}

void cxd_progress_size(struct cxd_progress *p, uint64_t size, uint64_t now_ns)
{
	char line[CXD_PROGRESS_LINE];
	size_t len;

	if (p->out == NULL)
		return;
	if (p->k) {
		p->t_prev = p->k > 1 ? p->t_last : 0;
		p->t_last = now_ns - p->size_start_ns;
	}
	p->k++;
	p->size = size;
	p->size_start_ns = now_ns;
	if (now_ns - p->start_ns < CXD_PROGRESS_AFTER_NS)
		return;
	len = cxd_progress_format(line, sizeof(line), p->name, p->k, p->n,
				  size, now_ns - p->start_ns,
				  cxd_progress_left_ns(size, p->max_size,
						       p->duration_ns,
						       p->t_prev, p->t_last));
	cxd_progress_draw(p->out, line, len, &p->drawn);
}

void cxd_progress_draw(FILE *out, const char *line, size_t len,
		       size_t *drawn)
{
	/* Pad over a longer previous line rather than rely on escapes. */
	fprintf(out, "\r%s%*s", line, *drawn > len ? (int) (*drawn - len) : 0,
		"");
	fflush(out);
	*drawn = len > *drawn ? len : *drawn;
}

void cxd_progress_erase(FILE *out, size_t *drawn)
{
	if (out == NULL || *drawn == 0)
		return;
	fprintf(out, "\r%*s\r", (int) *drawn, "");
	fflush(out);
	*drawn = 0;
}

void cxd_progress_clear(struct cxd_progress *p)
{
	cxd_progress_erase(p->out, &p->drawn);
}
