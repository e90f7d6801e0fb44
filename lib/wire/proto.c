/* SPDX-License-Identifier: BSD-3-Clause */
/* Control-channel wire format: strict big-endian encode/decode, no I/O. */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
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

/* ---- Layouts: each message's fields in wire order, stated once for
 * both directions. Integers are big-endian; a string is a u16 length
 * and its bytes; a blob a u32 length (the field named by len_off) and
 * its bytes. */

enum fkind { F_U16, F_U32, F_I32, F_U64, F_STR, F_BLOB };

struct field {
	enum fkind kind;
	size_t off;
	size_t cap;     /* F_STR, F_BLOB: the field's size */
	size_t len_off; /* F_BLOB: its uint32_t length */
};

/* Rows name field f of struct cxd_<m>. */
#define OFF(m, f) offsetof(struct cxd_##m, f)
#define CAP(m, f) sizeof(((struct cxd_##m *) 0)->f)
#define U16(m, f) { F_U16, OFF(m, f), 0, 0 }
#define U32(m, f) { F_U32, OFF(m, f), 0, 0 }
#define I32(m, f) { F_I32, OFF(m, f), 0, 0 }
#define U64(m, f) { F_U64, OFF(m, f), 0, 0 }
#define STR(m, f) { F_STR, OFF(m, f), CAP(m, f), 0 }
#define BLOB(m, f, len) { F_BLOB, OFF(m, f), CAP(m, f), OFF(m, len) }
#define NFIELDS(fields) (sizeof(fields) / sizeof(fields[0]))

static const struct field hdr_f[] = {
	U32(hdr, magic), U16(hdr, version), U16(hdr, type), U32(hdr, len),
};

static const struct field hello_f[] = {
	STR(hello, program), STR(hello, version),
};

/* RUN: every field of cxd_run_opts, in declaration order. */
static const struct field run_f[] = {
	U64(run_opts, iters),	  U64(run_opts, duration_s),
	U64(run_opts, min_size),  U64(run_opts, max_size),
	U64(run_opts, list_size), U64(run_opts, warmup),
	U64(run_opts, latency_gap_us), U64(run_opts, buf_sz),
	U64(run_opts, buf_align), U32(run_opts, flags),
	U32(run_opts, hugepages), U32(run_opts, amo_op),
	U32(run_opts, cswap_op),  U32(run_opts, amo_type),
	STR(run_opts, provider),  U32(run_opts, tclass),
};

/* ACCEPT: status travels as its two's-complement u32. */
static const struct field accept_f[] = {
	I32(accept, status), STR(accept, reason),
};

static const struct field addr_f[] = {
	STR(addr_msg, provider), STR(addr_msg, domain),
	BLOB(addr_msg, addr, addr_len), U64(addr_msg, key),
	U64(addr_msg, rx_base),	 U64(addr_msg, rx_len),
	I32(addr_msg, tx_gpu),	 I32(addr_msg, rx_gpu),
	I32(addr_msg, gpu_type), U32(addr_msg, gpu_count),
	U32(addr_msg, uid),
};

static const struct field barrier_f[] = { { F_U32, 0, 0, 0 } }; /* a u32 */

static const struct field result_f[] = {
	U64(result_msg, size), U64(result_msg, count),
	U64(result_msg, elapsed_ns), U32(result_msg, status),
};

/* Big enough for any message: decoders fill this, then copy it out. */
union any_msg {
	struct cxd_hdr hdr;
	struct cxd_hello hello;
	struct cxd_run_opts run;
	struct cxd_accept accept;
	struct cxd_addr_msg addr;
	struct cxd_result_msg result;
	uint32_t barrier;
};

static void put_field(struct wr *w, const struct field *f, const char *m)
{
	const void *at = m + f->off;
	uint32_t n;

	switch (f->kind) {
	case F_U16: put_be(w, *(const uint16_t *) at, 2); break;
	case F_U32: put_be(w, *(const uint32_t *) at, 4); break;
	case F_I32: put_be(w, (uint32_t) *(const int32_t *) at, 4); break;
	case F_U64: put_be(w, *(const uint64_t *) at, 8); break;
	case F_STR: put_str(w, at, f->cap); break;
	case F_BLOB:
		n = *(const uint32_t *) (const void *) (m + f->len_off);
		if (n > f->cap) {
			w->full = true;
			break;
		}
		put_be(w, n, 4);
		put_bytes(w, at, n);
		break;
	}
}

/* Avoid implementation-defined narrowing of values above INT32_MAX. */
static int32_t to_i32(uint32_t v)
{
	return v <= INT32_MAX ? (int32_t) v :
	       (int32_t) (v - INT32_MAX - 1) + INT32_MIN;
}

static void get_field(struct rd *r, const struct field *f, char *m)
{
	void *at = m + f->off;
	const uint8_t *b;
	uint32_t n;

	switch (f->kind) {
	case F_U16: *(uint16_t *) at = (uint16_t) get_be(r, 2); break;
	case F_U32: *(uint32_t *) at = (uint32_t) get_be(r, 4); break;
	case F_I32: *(int32_t *) at = to_i32((uint32_t) get_be(r, 4)); break;
	case F_U64: *(uint64_t *) at = get_be(r, 8); break;
	case F_STR: get_str(r, at, f->cap); break;
	case F_BLOB:
		n = (uint32_t) get_be(r, 4);
		if (n > f->cap) {
			r->bad = true;
			break;
		}
		*(uint32_t *) (void *) (m + f->len_off) = n;
		b = take(r, n);
		if (b && n)
			memcpy(at, b, n);
		break;
	}
}

static ssize_t encode_fields(const struct field *f, size_t nf,
			     const void *m, uint8_t *buf, size_t cap)
{
	struct wr w = { .p = buf, .cap = cap };

	for (size_t i = 0; i < nf; i++)
		put_field(&w, &f[i], m);
	return wr_done(&w);
}

/* m (size bytes) is written only when the whole payload is good. */
static int decode_fields(const struct field *f, size_t nf, const uint8_t *p,
			 size_t len, void *m, size_t size)
{
	struct rd r = { .p = p, .len = len };
	union any_msg t;

	memset(&t, 0, sizeof(t));
	for (size_t i = 0; i < nf; i++)
		get_field(&r, &f[i], (char *) &t);
	if (rd_done(&r))
		return -EPROTO;
	memcpy(m, &t, size);
	return 0;
}

#define ENCODE(fields, m, buf, cap) \
	encode_fields(fields, NFIELDS(fields), m, buf, cap)
#define DECODE(fields, p, len, m) \
	decode_fields(fields, NFIELDS(fields), p, len, m, sizeof(*(m)))

/* ---- Header */

void cxd_hdr_encode(const struct cxd_hdr *h, uint8_t out[CXD_HDR_LEN])
{
	ENCODE(hdr_f, h, out, CXD_HDR_LEN);
}

int cxd_hdr_decode(const uint8_t in[CXD_HDR_LEN], struct cxd_hdr *h,
		   char *err, size_t errlen)
{
	struct cxd_hdr t;
	char scratch[8];

	if (err == NULL || errlen == 0) { /* callers may not want the text */
		err = scratch;
		errlen = sizeof(scratch);
	}
	DECODE(hdr_f, in, CXD_HDR_LEN, &t); /* fixed size: cannot fail */
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

/* ---- Messages */

ssize_t cxd_enc_hello(const struct cxd_hello *m, uint8_t *buf, size_t cap)
{
	return ENCODE(hello_f, m, buf, cap);
}

int cxd_dec_hello(const uint8_t *p, size_t len, struct cxd_hello *m)
{
	return DECODE(hello_f, p, len, m);
}

ssize_t cxd_enc_run(const struct cxd_run_opts *m, uint8_t *buf, size_t cap)
{
	return ENCODE(run_f, m, buf, cap);
}

int cxd_dec_run(const uint8_t *p, size_t len, struct cxd_run_opts *m)
{
	return DECODE(run_f, p, len, m);
}

ssize_t cxd_enc_accept(const struct cxd_accept *m, uint8_t *buf, size_t cap)
{
	return ENCODE(accept_f, m, buf, cap);
}

int cxd_dec_accept(const uint8_t *p, size_t len, struct cxd_accept *m)
{
	return DECODE(accept_f, p, len, m);
}

ssize_t cxd_enc_addr(const struct cxd_addr_msg *m, uint8_t *buf, size_t cap)
{
	if (m->addr_len > CXD_MAX_FABRIC_ADDR)
		return -EINVAL;
	return ENCODE(addr_f, m, buf, cap);
}

int cxd_dec_addr(const uint8_t *p, size_t len, struct cxd_addr_msg *m)
{
	struct cxd_addr_msg t;

	if (DECODE(addr_f, p, len, &t) ||
	    t.gpu_type < CXD_GPU_NONE || t.gpu_type > CXD_GPU_INTEL)
		return -EPROTO;
	*m = t;
	return 0;
}

ssize_t cxd_enc_barrier(uint32_t seq, uint8_t *buf, size_t cap)
{
	/* from a whole message: GCC's -O3 array-bounds check looks into every
	 * field kind put_field could read, not just barrier_f's u32 */
	union any_msg m = { .barrier = seq };

	return ENCODE(barrier_f, &m, buf, cap);
}

int cxd_dec_barrier(const uint8_t *p, size_t len, uint32_t *seq)
{
	return DECODE(barrier_f, p, len, seq);
}

ssize_t cxd_enc_result(const struct cxd_result_msg *m, uint8_t *buf,
		       size_t cap)
{
	return ENCODE(result_f, m, buf, cap);
}

int cxd_dec_result(const uint8_t *p, size_t len, struct cxd_result_msg *m)
{
	return DECODE(result_f, p, len, m);
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
