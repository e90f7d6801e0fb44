/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --validate: before each size the source buffer gets a pattern and the
 * destination is cleared; after it, every byte the destination should
 * hold is compared (GPU memory through the runtime's copy). Nothing here
 * runs inside the timed loop.
 *
 * Every operation of a size carries the same bytes: byte j of an
 * operation is cxd_validate_byte(size, j). The source holds that pattern in
 * each slot its operations read (slots step by the size rounded up to
 * --buf-align), so a lost, shifted, truncated or foreign byte differs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/gpu.h"
#include "session/session.h"
#include "run.h"
#include "session/post.h"

#define CHUNK (1u << 20)

/* Test builds only: flips a byte of the destination before the check. */
void cxd_gpu_standin_corrupt(const struct cxd_buf *b) __attribute__((weak));

uint8_t cxd_validate_byte(uint64_t size, uint64_t j)
{
	/* Multiplicative hashing: no short period, differs per size. */
	uint32_t x = (uint32_t) (j + 1) * 2654435761u ^
		     (uint32_t) size * 0x9E3779B1u;

	return (uint8_t) (x >> 24 ^ x >> 11);
}

static bool on(const struct cxd_sess *s)
{
	return cxd_run_has(s->run, CXD_RUN_VALIDATE) &&
	       !cxd_tool_has(s->tool, CXD_F_ATOMIC);
}

/* Reads bring the data to the initiator: the roles of tx and rx swap. */
static bool reads(const struct cxd_sess *s)
{
	return s->ops->facts.to_initiator;
}

static const struct cxd_buf *source(const struct cxd_sess *s)
{
	return reads(s) ? &s->rx : &s->tx;
}

static const struct cxd_buf *dest(const struct cxd_sess *s)
{
	return reads(s) ? &s->tx : &s->rx;
}

static uint64_t gran(const struct cxd_sess *s, uint64_t size)
{
	uint64_t g = s->run->buf_align ? cxd_roundup(size, s->run->buf_align)
				       : size;

	return g ? g : size;
}

int cxd_validate_prepare(struct cxd_sess *s, uint64_t size)
{
	const struct cxd_buf *src = source(s), *dst = dest(s);
	uint64_t g = gran(s, size);
	uint8_t *tmp;
	int ret = 0;

	if (!on(s))
		return 0;
	cxd_sess_enter(s, "the validation set-up");
	if (dst->ptr && (ret = cxd_buf_set(dst, 0)) != 0)
		return cxd_sess_fail(s, ret, "--validate: cannot clear the "
				     "destination buffer: %s", strerror(-ret));
	if (src->ptr == NULL)
		return 0;
	tmp = malloc(CHUNK);
	if (tmp == NULL)
		return cxd_sess_fail(s, -ENOMEM, "out of memory");
	for (size_t off = 0; ret == 0 && off < src->map_len; off += CHUNK) {
		size_t n = src->map_len - off < CHUNK ? src->map_len - off
						      : CHUNK;

		for (size_t i = 0; i < n; i++) {
			uint64_t j = (off + i) % g;

			tmp[i] = j < size ? cxd_validate_byte(size, j) : 0;
		}
		ret = cxd_buf_write(src, off, tmp, n);
		cxd_sess_beat(s); /* big buffers: not a hang */
	}
	free(tmp);
	if (ret)
		return cxd_sess_fail(s, ret, "--validate: cannot fill the "
				     "source buffer: %s", strerror(-ret));
	return 0;
}

/* Where the operations of a size landed: n regions, step bytes apart. */
static void regions(const struct cxd_sess *s, uint64_t size, uint64_t ops,
		    uint64_t *n_p, uint64_t *step_p)
{
	const struct cxd_buf *d = dest(s);
	uint64_t g = gran(s, size), slots = 1;
	bool lists = cxd_tool_is(s->tool, CXD_TRAIT_LISTS);

	*step_p = g;
	if (s->ops->facts.two_sided) {
		/* Receives are slots of the largest size (op_send.c). */
		*step_p = s->run->max_size;
		if (lists)
			slots = s->run->list_size;
		if (*step_p * slots > d->len)
			slots = 1;
	} else if (lists && s->wrap >= g) { /* the loopback's wrap is 0 */
		slots = s->wrap / g; /* as cxd_post_at wraps */
	}
	*n_p = ops < slots ? ops : slots;
}

static int mismatch(struct cxd_sess *s, uint64_t size, uint64_t off,
		    uint8_t want, uint8_t got)
{
	const struct cxd_buf *d = dest(s);
	char mem[32];

	cxd_mem_label(d->gpu ? d->dev : -1, mem, sizeof(mem));
	return cxd_sess_fail(s, -EILSEQ, "--validate: data mismatch at size "
			     "%llu: offset %llu of the %s's %s buffer (%s) "
			     "holds 0x%02x, expected 0x%02x",
			     (unsigned long long) size,
			     (unsigned long long) off,
			     s->is_client ? "client" : "server",
			     d == &s->tx ? "TX" : "RX", mem, got, want);
}

/* Compare one chunk read back from the destination at offset base. */
static int check_chunk(struct cxd_sess *s, uint64_t size, uint64_t step,
		       uint64_t base, const uint8_t *p, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		uint64_t j = step ? (base + i) % step : base + i;
		uint8_t want = cxd_validate_byte(size, j);

		if (j < size && p[i] != want)
			return mismatch(s, size, base + i, want, p[i]);
	}
	return 0;
}

/* 1: checked and right, 2: nothing to check, or a negative errno. The
 * span is read in large chunks: one runtime copy each for GPU memory. */
static int check(struct cxd_sess *s, uint64_t size, uint64_t ops)
{
	const struct cxd_buf *d = dest(s);
	uint64_t n, step, span;
	uint8_t *tmp;
	int ret = 0;

	if (d->ptr == NULL || ops == 0 || size > d->len)
		return 2;
	regions(s, size, ops, &n, &step);
	span = (n - 1) * step + size;
	if (cxd_gpu_standin_corrupt)
		cxd_gpu_standin_corrupt(d);
	tmp = malloc(CHUNK);
	if (tmp == NULL)
		return cxd_sess_fail(s, -ENOMEM, "out of memory");
	for (uint64_t off = 0; ret == 0 && off < span; off += CHUNK) {
		size_t len = span - off < CHUNK ? span - off : CHUNK;

		ret = cxd_buf_read(d, off, tmp, len);
		if (ret)
			ret = cxd_sess_fail(s, ret, "--validate: cannot read "
					    "the buffer: %s", strerror(-ret));
		else
			ret = check_chunk(s, size, step, off, tmp, len);
		cxd_sess_beat(s);
	}
	free(tmp);
	return ret ? ret : 1;
}

int cxd_validate_finish(struct cxd_sess *s, uint64_t size, uint64_t own_ops,
			uint64_t peer_ops, struct cxd_result *res)
{
	struct cxd_result_msg m = { .size = size }, peer;
	int mine, ret;

	if (!cxd_run_has(s->run, CXD_RUN_VALIDATE))
		return 0;
	if (!on(s)) {
		/* Atomics always verify; --validate makes a mismatch fatal. */
		if (res->verify == 0)
			return cxd_sess_fail(s, -EILSEQ, "--validate: atomic "
					     "verification failed at size %llu",
					     (unsigned long long) size);
		res->validated = res->verify == 1;
		return 0;
	}
	cxd_sess_enter(s, "the validation");
	/* This side's target holds what the peer initiated, or, for reads
	 * and a tool that targets itself, what this side did. */
	mine = check(s, size, reads(s) || cxd_tool_is(s->tool,
		     CXD_TRAIT_LOOPBACK) ? own_ops : peer_ops);
	if (mine < 0)
		return mine;
	m.status = (uint32_t) mine;
	ret = cxd_sess_share(s, &m, &peer);
	if (ret)
		return ret;
	res->validated = mine == 1 || peer.status == 1;
	return 0;
}
