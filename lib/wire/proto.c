/* Control-channel wire format: strict big-endian encode/decode, no I/O. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "proto.h"

static const char *const msg_names[CXD_MSG_TYPE_END] = {
	[CXD_MSG_HELLO] = "HELLO",	   [CXD_MSG_RUN] = "RUN",
	[CXD_MSG_ACCEPT] = "ACCEPT",	   [CXD_MSG_ADDR] = "ADDR",
	[CXD_MSG_BARRIER] = "BARRIER",	   [CXD_MSG_RESULT] = "RESULT",
	[CXD_MSG_HEARTBEAT] = "HEARTBEAT", [CXD_MSG_ERROR] = "ERROR",
};

const char *cxd_msg_name(uint16_t type)
{
	if (type == 0 || type >= CXD_MSG_TYPE_END)
		return "unknown";
	return msg_names[type];
}

/* ---- Writer: every put checks the room left, so cap is never passed. */

struct wr {
	uint8_t *p;
	size_t cap, off;
	bool full;
};

static void put_bytes(struct wr *w, const void *src, size_t n)
{
	if (w->full || n > w->cap - w->off) {
		w->full = true;
		return;
	}
	if (n)
		memcpy(w->p + w->off, src, n);
	w->off += n;
}

static void put_be(struct wr *w, uint64_t v, unsigned bytes)
{
	uint8_t b[8];

	for (unsigned i = 0; i < bytes; i++)
		b[i] = (uint8_t) (v >> (8 * (bytes - 1 - i)));
	put_bytes(w, b, bytes);
}

/*
 * A string goes out as what the decoder will accept: at most field - 1
 * bytes (the peer's field has the same size) and printable ASCII only, so
 * a stray control character cannot make the peer reject the whole frame.
 */
static void put_str(struct wr *w, const char *s, size_t field)
{
	size_t n = strnlen(s, field - 1);
	uint8_t tmp[CXD_MAX_PAYLOAD];

	for (size_t i = 0; i < n; i++)
		tmp[i] = s[i] >= 0x20 && s[i] <= 0x7e ? (uint8_t) s[i] : '?';
	put_be(w, n, 2);
	put_bytes(w, tmp, n);
}

static ssize_t wr_done(const struct wr *w)
{
	return w->full ? -ENOSPC : (ssize_t) w->off;
}

/* ---- Reader: any shortfall marks the whole payload bad. */

struct rd {
	const uint8_t *p;
	size_t len, off;
	bool bad;
};

static const uint8_t *take(struct rd *r, size_t n)
{
	const uint8_t *at = r->p + r->off;

	if (r->bad || n > r->len - r->off) {
		r->bad = true;
		return NULL;
	}
	r->off += n;
	return at;
}

static uint64_t get_be(struct rd *r, unsigned bytes)
{
	const uint8_t *b = take(r, bytes);
	uint64_t v = 0;

	for (unsigned i = 0; b && i < bytes; i++)
		v = v << 8 | b[i];
	return v;
}

/* The string must fit dst with its NUL and be printable ASCII. */
static void get_str(struct rd *r, char *dst, size_t cap)
{
	size_t n = (size_t) get_be(r, 2);
	const uint8_t *b;

	if (r->bad || cap == 0 || n >= cap) {
		r->bad = true;
		return;
	}
	b = take(r, n);
	for (size_t i = 0; b && i < n; i++) {
		if (b[i] < 0x20 || b[i] > 0x7e) {
			r->bad = true;
			return;
		}
		dst[i] = (char) b[i];
	}
	if (b)
		dst[n] = '\0';
}

/* Trailing bytes are as wrong as missing ones. */
static int rd_done(const struct rd *r)
{
	return !r->bad && r->off == r->len ? 0 : -EPROTO;
}

/* ---- Header */

void cxd_hdr_encode(const struct cxd_hdr *h, uint8_t out[CXD_HDR_LEN])
{
	struct wr w = { .p = out, .cap = CXD_HDR_LEN };

	put_be(&w, h->magic, 4);
	put_be(&w, h->version, 2);
	put_be(&w, h->type, 2);
	put_be(&w, h->len, 4);
}

int cxd_hdr_decode(const uint8_t in[CXD_HDR_LEN], struct cxd_hdr *h,
		   char *err, size_t errlen)
{
	struct rd r = { .p = in, .len = CXD_HDR_LEN };
	struct cxd_hdr t;
	char scratch[8];

	if (err == NULL || errlen == 0) { /* callers may not want the text */
		err = scratch;
		errlen = sizeof(scratch);
	}
	t.magic = (uint32_t) get_be(&r, 4);
	t.version = (uint16_t) get_be(&r, 2);
	t.type = (uint16_t) get_be(&r, 2);
	t.len = (uint32_t) get_be(&r, 4);
	if (t.magic != CXD_PROTO_MAGIC)
		snprintf(err, errlen, "bad magic 0x%08x (not a cxi diagnostics "
			 "peer?)", (unsigned) t.magic);
	else if (t.version != CXD_PROTO_VERSION)
		snprintf(err, errlen, "protocol version %u, expected %u",
			 (unsigned) t.version, (unsigned) CXD_PROTO_VERSION);
	else if (t.type == 0 || t.type >= CXD_MSG_TYPE_END)
		snprintf(err, errlen, "unknown message type %u",
			 (unsigned) t.type);
	else if (t.len > CXD_MAX_PAYLOAD)
		snprintf(err, errlen, "frame length %u exceeds %u",
			 (unsigned) t.len, (unsigned) CXD_MAX_PAYLOAD);
	else {
		*h = t;
		return 0;
	}
	return -EPROTO;
}

/* ---- HELLO */

ssize_t cxd_enc_hello(const struct cxd_hello *m, uint8_t *buf, size_t cap)
{
	struct wr w = { .p = buf, .cap = cap };

	put_str(&w, m->program, sizeof(m->program));
	put_str(&w, m->version, sizeof(m->version));
	return wr_done(&w);
}

int cxd_dec_hello(const uint8_t *p, size_t len, struct cxd_hello *m)
{
	struct rd r = { .p = p, .len = len };
	struct cxd_hello t;

	memset(&t, 0, sizeof(t));
	get_str(&r, t.program, sizeof(t.program));
	get_str(&r, t.version, sizeof(t.version));
	if (rd_done(&r))
		return -EPROTO;
	*m = t;
	return 0;
}

/* ---- RUN: every field of cxd_run_opts, in declaration order. */

ssize_t cxd_enc_run(const struct cxd_run_opts *m, uint8_t *buf, size_t cap)
{
	struct wr w = { .p = buf, .cap = cap };
	const uint64_t u64s[] = { m->iters,	     m->duration_s,
				  m->min_size,	     m->max_size,
				  m->list_size,	     m->warmup,
				  m->latency_gap_us, m->buf_sz,
				  m->buf_align };
	const uint32_t u32s[] = { m->flags, m->hugepages, m->amo_op,
				  m->cswap_op, m->amo_type };

	for (size_t i = 0; i < sizeof(u64s) / sizeof(u64s[0]); i++)
		put_be(&w, u64s[i], 8);
	for (size_t i = 0; i < sizeof(u32s) / sizeof(u32s[0]); i++)
		put_be(&w, u32s[i], 4);
	put_str(&w, m->provider, sizeof(m->provider));
	return wr_done(&w);
}

int cxd_dec_run(const uint8_t *p, size_t len, struct cxd_run_opts *m)
{
	struct rd r = { .p = p, .len = len };
	struct cxd_run_opts t;
	uint64_t *u64s[] = { &t.iters,	    &t.duration_s,     &t.min_size,
			     &t.max_size,   &t.list_size,      &t.warmup,
			     &t.latency_gap_us, &t.buf_sz,     &t.buf_align };
	uint32_t *u32s[] = { &t.flags, &t.hugepages, &t.amo_op, &t.cswap_op,
			     &t.amo_type };

	memset(&t, 0, sizeof(t));
	for (size_t i = 0; i < sizeof(u64s) / sizeof(u64s[0]); i++)
		*u64s[i] = get_be(&r, 8);
	for (size_t i = 0; i < sizeof(u32s) / sizeof(u32s[0]); i++)
		*u32s[i] = (uint32_t) get_be(&r, 4);
	get_str(&r, t.provider, sizeof(t.provider));
	if (rd_done(&r))
		return -EPROTO;
	*m = t;
	return 0;
}

/* ---- ACCEPT: status travels as its two's-complement u32. */

ssize_t cxd_enc_accept(const struct cxd_accept *m, uint8_t *buf, size_t cap)
{
	struct wr w = { .p = buf, .cap = cap };

	put_be(&w, (uint32_t) m->status, 4);
	put_str(&w, m->reason, sizeof(m->reason));
	return wr_done(&w);
}

int cxd_dec_accept(const uint8_t *p, size_t len, struct cxd_accept *m)
{
	struct rd r = { .p = p, .len = len };
	struct cxd_accept t;
	uint32_t status;

	memset(&t, 0, sizeof(t));
	status = (uint32_t) get_be(&r, 4);
	/* Avoid implementation-defined narrowing of values above INT32_MAX. */
	t.status = status <= INT32_MAX ? (int32_t) status :
		   (int32_t) (status - INT32_MAX - 1) + INT32_MIN;
	get_str(&r, t.reason, sizeof(t.reason));
	if (rd_done(&r))
		return -EPROTO;
	*m = t;
	return 0;
}

/* ---- ADDR */

ssize_t cxd_enc_addr(const struct cxd_addr_msg *m, uint8_t *buf, size_t cap)
{
	struct wr w = { .p = buf, .cap = cap };

	if (m->addr_len > CXD_MAX_FABRIC_ADDR)
		return -EINVAL;
	put_str(&w, m->provider, sizeof(m->provider));
	put_str(&w, m->domain, sizeof(m->domain));
	put_be(&w, m->addr_len, 4);
	put_bytes(&w, m->addr, m->addr_len);
	put_be(&w, m->key, 8);
	put_be(&w, m->rx_base, 8);
	put_be(&w, m->rx_len, 8);
	put_be(&w, (uint32_t) m->tx_gpu, 4);
	put_be(&w, (uint32_t) m->rx_gpu, 4);
	put_be(&w, (uint32_t) m->gpu_type, 4);
	put_be(&w, m->gpu_count, 4);
	put_be(&w, m->uid, 4);
	return wr_done(&w);
}

int cxd_dec_addr(const uint8_t *p, size_t len, struct cxd_addr_msg *m)
{
	struct rd r = { .p = p, .len = len };
	struct cxd_addr_msg t;
	const uint8_t *a;

	memset(&t, 0, sizeof(t));
	get_str(&r, t.provider, sizeof(t.provider));
	get_str(&r, t.domain, sizeof(t.domain));
	t.addr_len = (uint32_t) get_be(&r, 4);
	if (t.addr_len > CXD_MAX_FABRIC_ADDR)
		return -EPROTO;
	a = take(&r, t.addr_len);
	if (a && t.addr_len)
		memcpy(t.addr, a, t.addr_len);
	t.key = get_be(&r, 8);
	t.rx_base = get_be(&r, 8);
	t.rx_len = get_be(&r, 8);
	t.tx_gpu = (int32_t) (uint32_t) get_be(&r, 4);
	t.rx_gpu = (int32_t) (uint32_t) get_be(&r, 4);
	t.gpu_type = (int32_t) (uint32_t) get_be(&r, 4);
	t.gpu_count = (uint32_t) get_be(&r, 4);
	t.uid = (uint32_t) get_be(&r, 4);
	if (t.gpu_type < CXD_GPU_NONE || t.gpu_type > CXD_GPU_INTEL)
		return -EPROTO;
	if (rd_done(&r))
		return -EPROTO;
	*m = t;
	return 0;
}

/* ---- BARRIER */

ssize_t cxd_enc_barrier(uint32_t seq, uint8_t *buf, size_t cap)
{
	struct wr w = { .p = buf, .cap = cap };

	put_be(&w, seq, 4);
	return wr_done(&w);
}

int cxd_dec_barrier(const uint8_t *p, size_t len, uint32_t *seq)
{
	struct rd r = { .p = p, .len = len };
	uint32_t t = (uint32_t) get_be(&r, 4);

	if (rd_done(&r))
		return -EPROTO;
	*seq = t;
	return 0;
}

/* ---- RESULT */

ssize_t cxd_enc_result(const struct cxd_result_msg *m, uint8_t *buf,
		       size_t cap)
{
	struct wr w = { .p = buf, .cap = cap };

	put_be(&w, m->size, 8);
	put_be(&w, m->count, 8);
	put_be(&w, m->elapsed_ns, 8);
	put_be(&w, m->status, 4);
	return wr_done(&w);
}

int cxd_dec_result(const uint8_t *p, size_t len, struct cxd_result_msg *m)
{
	struct rd r = { .p = p, .len = len };
	struct cxd_result_msg t;

	memset(&t, 0, sizeof(t));
	t.size = get_be(&r, 8);
	t.count = get_be(&r, 8);
	t.elapsed_ns = get_be(&r, 8);
	t.status = (uint32_t) get_be(&r, 4);
	if (rd_done(&r))
		return -EPROTO;
	*m = t;
	return 0;
}

/* ---- ERROR text: longer text is cut to what a CXD_TEXT_LEN field holds. */

ssize_t cxd_enc_text(const char *text, uint8_t *buf, size_t cap)
{
	struct wr w = { .p = buf, .cap = cap };

	put_str(&w, text ? text : "", CXD_TEXT_LEN);
	return wr_done(&w);
}

int cxd_dec_text(const uint8_t *p, size_t len, char *text, size_t cap)
{
	struct rd r = { .p = p, .len = len };
	char t[CXD_MAX_PAYLOAD];

	/* Decode into scratch so a failure leaves text untouched. */
	get_str(&r, t, cap < sizeof(t) ? cap : sizeof(t));
	if (rd_done(&r))
		return -EPROTO;
	memcpy(text, t, strlen(t) + 1);
	return 0;
}
