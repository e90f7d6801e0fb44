/* SPDX-License-Identifier: BSD-3-Clause */
/* Control-channel wire format: round trips and every way to reject input. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "wire/proto.h"

/* ---- Header */

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t) (v >> 24);
	p[1] = (uint8_t) (v >> 16);
	p[2] = (uint8_t) (v >> 8);
	p[3] = (uint8_t) v;
}

static void hdr_bytes(uint8_t *b, uint32_t magic, uint16_t ver,
		      uint16_t type, uint32_t len)
{
	put32(b, magic);
	b[4] = (uint8_t) (ver >> 8);
	b[5] = (uint8_t) ver;
	b[6] = (uint8_t) (type >> 8);
	b[7] = (uint8_t) type;
	put32(b + 8, len);
}

static void test_hdr_round_trip(void **state)
{
	struct cxd_hdr h = { CXD_PROTO_MAGIC, CXD_PROTO_VERSION,
			     CXD_MSG_RESULT, 4096 }, out;
	uint8_t b[CXD_HDR_LEN];
	const uint8_t want[CXD_HDR_LEN] = { 'C', 'X', 'D', 'G', 0, CXD_PROTO_VERSION, 0, 6,
					    0, 0, 0x10, 0 };
	char err[128] = "";

	(void) state;
	cxd_hdr_encode(&h, b);
	assert_memory_equal(b, want, CXD_HDR_LEN);
	assert_int_equal(cxd_hdr_decode(b, &out, err, sizeof(err)), 0);
	assert_int_equal(out.magic, h.magic);
	assert_int_equal(out.version, h.version);
	assert_int_equal(out.type, h.type);
	assert_int_equal(out.len, h.len);
	/* err may be omitted. */
	assert_int_equal(cxd_hdr_decode(b, &out, NULL, 0), 0);
}

static void expect_hdr_error(uint32_t magic, uint16_t ver, uint16_t type,
			     uint32_t len, const char *msg)
{
	uint8_t b[CXD_HDR_LEN];
	struct cxd_hdr h;
	char err[128] = "";

	hdr_bytes(b, magic, ver, type, len);
	assert_int_equal(cxd_hdr_decode(b, &h, err, sizeof(err)), -EPROTO);
	assert_string_equal(err, msg);
	assert_int_equal(cxd_hdr_decode(b, &h, NULL, 0), -EPROTO);
}

static void test_hdr_errors(void **state)
{
	(void) state;
	expect_hdr_error(0x12345678, CXD_PROTO_VERSION, 1, 0,
			 "bad magic 0x12345678 (not a cxi diagnostics peer?)");
	expect_hdr_error(CXD_PROTO_MAGIC, 7, 1, 0,
			 "protocol version 7, expected 3");
	expect_hdr_error(CXD_PROTO_MAGIC, CXD_PROTO_VERSION, 0, 0, "unknown message type 0");
	expect_hdr_error(CXD_PROTO_MAGIC, CXD_PROTO_VERSION, 99, 0,
			 "unknown message type 99");
	expect_hdr_error(CXD_PROTO_MAGIC, CXD_PROTO_VERSION, CXD_MSG_TYPE_END, 0,
			 "unknown message type 9");
	expect_hdr_error(CXD_PROTO_MAGIC, CXD_PROTO_VERSION, 1, 99999,
			 "frame length 99999 exceeds 4096");
	expect_hdr_error(CXD_PROTO_MAGIC, CXD_PROTO_VERSION, 1, 4097,
			 "frame length 4097 exceeds 4096");
}

static void test_msg_name(void **state)
{
	(void) state;
	assert_string_equal(cxd_msg_name(CXD_MSG_HELLO), "HELLO");
	assert_string_equal(cxd_msg_name(CXD_MSG_RUN), "RUN");
	assert_string_equal(cxd_msg_name(CXD_MSG_ACCEPT), "ACCEPT");
	assert_string_equal(cxd_msg_name(CXD_MSG_ADDR), "ADDR");
	assert_string_equal(cxd_msg_name(CXD_MSG_BARRIER), "BARRIER");
	assert_string_equal(cxd_msg_name(CXD_MSG_RESULT), "RESULT");
	assert_string_equal(cxd_msg_name(CXD_MSG_HEARTBEAT), "HEARTBEAT");
	assert_string_equal(cxd_msg_name(CXD_MSG_ERROR), "ERROR");
	assert_string_equal(cxd_msg_name(0), "unknown");
	assert_string_equal(cxd_msg_name(CXD_MSG_TYPE_END), "unknown");
	assert_string_equal(cxd_msg_name(0xffff), "unknown");
}

/* ---- Sample messages */

static void sample_hello(struct cxd_hello *m)
{
	memset(m, 0, sizeof(*m));
	snprintf(m->program, sizeof(m->program), "cxi_write_bw");
	snprintf(m->version, sizeof(m->version), "0.1.0");
}

static void sample_run(struct cxd_run_opts *m)
{
	memset(m, 0, sizeof(*m));
	m->iters = 1000;
	m->duration_s = 0x0102030405060708ULL;
	m->min_size = 1;
	m->max_size = 4294967295ULL;
	m->list_size = 16382;
	m->warmup = 10;
	m->latency_gap_us = 1000;
	m->buf_sz = 4294967296ULL;
	m->buf_align = 64;
	m->flags = 0x3ff;
	m->hugepages = 2;
	m->amo_op = 10;
	m->cswap_op = 5;
	m->amo_type = 12;
	m->tclass = 5; /* --tclass, after the provider name */
	snprintf(m->provider, sizeof(m->provider), "tcp;ofi_rxm");
}

static void sample_addr(struct cxd_addr_msg *m)
{
	memset(m, 0, sizeof(*m));
	snprintf(m->provider, sizeof(m->provider), "cxi");
	snprintf(m->domain, sizeof(m->domain), "cxi0");
	m->addr_len = 16;
	for (unsigned i = 0; i < m->addr_len; i++)
		m->addr[i] = (uint8_t) (i * 17);
	m->key = 0xdeadbeefcafef00dULL;
	m->rx_base = 0x7f0000001000ULL;
	m->rx_len = 1ULL << 32;
}

static void sample_result(struct cxd_result_msg *m)
{
	memset(m, 0, sizeof(*m));
	m->size = 65536;
	m->count = 12345;
	m->elapsed_ns = 987654321;
	m->status = 0xffffffffu;
}

/* ---- Round trips */

static void test_hello_round_trip(void **state)
{
	struct cxd_hello in, out;
	uint8_t b[CXD_MAX_PAYLOAD];
	ssize_t n;

	(void) state;
	sample_hello(&in);
	n = cxd_enc_hello(&in, b, sizeof(b));
	assert_int_equal(n, 2 + 12 + 2 + 5);
	assert_int_equal(cxd_dec_hello(b, (size_t) n, &out), 0);
	assert_string_equal(out.program, in.program);
	assert_string_equal(out.version, in.version);
}

static void test_run_round_trip(void **state)
{
	struct cxd_run_opts in, out;
	uint8_t b[CXD_MAX_PAYLOAD];
	ssize_t n;

	(void) state;
	sample_run(&in);
	n = cxd_enc_run(&in, b, sizeof(b));
	assert_int_equal(n, 9 * 8 + 5 * 4 + 2 + 11 + 4);
	/* Declaration order, big-endian: iters first, duration_s second. */
	assert_int_equal(b[7], 1000 & 0xff);
	assert_int_equal(b[8], 0x01);
	assert_int_equal(b[15], 0x08);
	memset(&out, 0, sizeof(out)); /* padding */
	assert_int_equal(cxd_dec_run(b, (size_t) n, &out), 0);
	assert_memory_equal(&out, &in, sizeof(in));
}

static void test_accept_round_trip(void **state)
{
	struct cxd_accept in = { .status = -EINVAL }, out;
	uint8_t b[CXD_MAX_PAYLOAD];
	ssize_t n;

	(void) state;
	snprintf(in.reason, sizeof(in.reason), "max size too large");
	n = cxd_enc_accept(&in, b, sizeof(b));
	assert_true(n > 0);
	assert_int_equal(cxd_dec_accept(b, (size_t) n, &out), 0);
	assert_int_equal(out.status, -EINVAL);
	assert_string_equal(out.reason, in.reason);

	in.status = 0;
	in.reason[0] = '\0';
	n = cxd_enc_accept(&in, b, sizeof(b));
	assert_int_equal(n, 6);
	assert_int_equal(cxd_dec_accept(b, (size_t) n, &out), 0);
	assert_int_equal(out.status, 0);
	assert_string_equal(out.reason, "");
}

static void test_addr_round_trip(void **state)
{
	struct cxd_addr_msg in, out;
	uint8_t b[CXD_MAX_PAYLOAD];
	ssize_t n;

	(void) state;
	sample_addr(&in);
	n = cxd_enc_addr(&in, b, sizeof(b));
	assert_true(n > 0);
	memset(&out, 0, sizeof(out)); /* padding */
	assert_int_equal(cxd_dec_addr(b, (size_t) n, &out), 0);
	assert_memory_equal(&out, &in, sizeof(in));

	/* The largest address still fits. */
	in.addr_len = CXD_MAX_FABRIC_ADDR;
	n = cxd_enc_addr(&in, b, sizeof(b));
	assert_true(n > 0);
	assert_int_equal(cxd_dec_addr(b, (size_t) n, &out), 0);
	assert_int_equal(out.addr_len, CXD_MAX_FABRIC_ADDR);
}

static void test_barrier_round_trip(void **state)
{
	uint8_t b[16];
	uint32_t seq = 0;

	(void) state;
	assert_int_equal(cxd_enc_barrier(0x01020304, b, sizeof(b)), 4);
	assert_int_equal(b[0], 1);
	assert_int_equal(b[3], 4);
	assert_int_equal(cxd_dec_barrier(b, 4, &seq), 0);
	assert_int_equal(seq, 0x01020304);
}

static void test_result_round_trip(void **state)
{
	struct cxd_result_msg in, out;
	uint8_t b[64];
	ssize_t n;

	(void) state;
	sample_result(&in);
	n = cxd_enc_result(&in, b, sizeof(b));
	assert_int_equal(n, 28);
	memset(&out, 0, sizeof(out)); /* padding */
	assert_int_equal(cxd_dec_result(b, (size_t) n, &out), 0);
	assert_memory_equal(&out, &in, sizeof(in));
}

static void test_text_round_trip(void **state)
{
	uint8_t b[CXD_MAX_PAYLOAD];
	char out[CXD_TEXT_LEN], longtext[2000];
	ssize_t n;

	(void) state;
	n = cxd_enc_text("out of memory", b, sizeof(b));
	assert_int_equal(n, 2 + 13);
	assert_int_equal(cxd_dec_text(b, (size_t) n, out, sizeof(out)), 0);
	assert_string_equal(out, "out of memory");

	/* Over-long text is cut so the peer's field can hold it. */
	memset(longtext, 'x', sizeof(longtext) - 1);
	longtext[sizeof(longtext) - 1] = '\0';
	n = cxd_enc_text(longtext, b, sizeof(b));
	assert_int_equal(n, 2 + CXD_TEXT_LEN - 1);
	assert_int_equal(cxd_dec_text(b, (size_t) n, out, sizeof(out)), 0);
	assert_int_equal(strlen(out), CXD_TEXT_LEN - 1);

	/* Control characters are replaced, so the peer will accept it. */
	n = cxd_enc_text("a\nb\tc", b, sizeof(b));
	assert_int_equal(cxd_dec_text(b, (size_t) n, out, sizeof(out)), 0);
	assert_string_equal(out, "a?b?c");
}

/* ---- Every message type: one sample each, encoded and decoded */

enum kind { K_HELLO, K_RUN, K_ACCEPT, K_ADDR, K_BARRIER, K_RESULT, K_TEXT,
	    K_COUNT };

/* A message of every type (accept, seq and text as the caller likes), or
 * room to decode one into. */
struct samples {
	struct cxd_hello h;
	struct cxd_run_opts r;
	struct cxd_accept a;
	struct cxd_addr_msg ad;
	uint32_t seq;
	struct cxd_result_msg res;
	char t[CXD_TEXT_LEN];
	const void *of[K_COUNT]; /* each kind's message */
};

static void samples_fill(struct samples *s, int status, const char *reason,
			 uint32_t seq, const char *text)
{
	memset(s, 0, sizeof(*s));
	sample_hello(&s->h);
	sample_run(&s->r);
	s->a.status = status;
	snprintf(s->a.reason, sizeof(s->a.reason), "%s", reason);
	sample_addr(&s->ad);
	s->seq = seq;
	sample_result(&s->res);
	s->of[K_HELLO] = &s->h;
	s->of[K_RUN] = &s->r;
	s->of[K_ACCEPT] = &s->a;
	s->of[K_ADDR] = &s->ad;
	s->of[K_BARRIER] = &s->seq;
	s->of[K_RESULT] = &s->res;
	snprintf(s->t, sizeof(s->t), "%s", text);
	s->of[K_TEXT] = s->t;
}

/*
 * Kind k's codec: with in NULL, encodes m into out (cap n) and returns
 * what the encoder does; else decodes in[0..n) into scratch space and
 * returns what the decoder does.
 */
static ssize_t codec(enum kind k, const void *m, uint8_t *out,
		     const uint8_t *in, size_t n)
{
	struct samples u; /* what a decoder writes */

	switch (k) {
	case K_HELLO:
		return in ? cxd_dec_hello(in, n, &u.h) :
			    cxd_enc_hello(m, out, n);
	case K_RUN:
		return in ? cxd_dec_run(in, n, &u.r) : cxd_enc_run(m, out, n);
	case K_ACCEPT:
		return in ? cxd_dec_accept(in, n, &u.a) :
			    cxd_enc_accept(m, out, n);
	case K_ADDR:
		return in ? cxd_dec_addr(in, n, &u.ad) :
			    cxd_enc_addr(m, out, n);
	case K_BARRIER:
		return in ? cxd_dec_barrier(in, n, &u.seq) :
			    cxd_enc_barrier(*(const uint32_t *) m, out, n);
	case K_RESULT:
		return in ? cxd_dec_result(in, n, &u.res) :
			    cxd_enc_result(m, out, n);
	case K_TEXT:
		return in ? cxd_dec_text(in, n, u.t, sizeof(u.t)) :
			    cxd_enc_text(m, out, n);
	default:
		fail_msg("no message kind %d", (int) k);
		return -1;
	}
}

/* Every proper prefix fails, the whole succeeds, one more byte fails. */
static void check_prefixes(const uint8_t *valid, size_t n, enum kind k)
{
	uint8_t *copy;

	assert_int_equal(codec(k, NULL, NULL, valid, n), 0);
	for (size_t len = 0; len < n; len++) {
		/* A heap copy of exactly len bytes: ASan catches over-reads. */
		copy = malloc(len ? len : 1);
		assert_non_null(copy);
		memcpy(copy, valid, len);
		assert_int_equal(codec(k, NULL, NULL, copy, len), -EPROTO);
		free(copy);
	}
	copy = malloc(n + 1);
	assert_non_null(copy);
	memcpy(copy, valid, n);
	copy[n] = 0;
	assert_int_equal(codec(k, NULL, NULL, copy, n + 1), -EPROTO);
	free(copy);
}

static void test_truncated_and_trailing(void **state)
{
	uint8_t b[CXD_MAX_PAYLOAD];
	struct samples s;

	(void) state;
	samples_fill(&s, -1, "no", 7, "bye");
	for (int k = 0; k < K_COUNT; k++) {
		ssize_t n = codec((enum kind) k, s.of[k], b, NULL, sizeof(b));

		assert_true(n > 0);
		check_prefixes(b, (size_t) n, (enum kind) k);
	}
}

/* ---- Malformed strings and addresses */

static void test_string_too_long(void **state)
{
	uint8_t b[CXD_MAX_PAYLOAD];
	struct cxd_hello h;
	char small[4];

	(void) state;
	/* program is CXD_NAME_LEN: 63 characters fit, 64 do not. */
	b[0] = 0;
	b[1] = CXD_NAME_LEN;
	memset(b + 2, 'a', CXD_NAME_LEN);
	b[2 + CXD_NAME_LEN] = 0;
	b[3 + CXD_NAME_LEN] = 1;
	b[4 + CXD_NAME_LEN] = '1';
	assert_int_equal(cxd_dec_hello(b, 5 + CXD_NAME_LEN, &h), -EPROTO);
	b[1] = CXD_NAME_LEN - 1;
	b[1 + CXD_NAME_LEN] = 0;
	b[2 + CXD_NAME_LEN] = 1;
	b[3 + CXD_NAME_LEN] = '1';
	assert_int_equal(cxd_dec_hello(b, 4 + CXD_NAME_LEN, &h), 0);
	assert_int_equal(strlen(h.program), CXD_NAME_LEN - 1);

	/* dec_text honours the caller's cap. */
	assert_int_equal(cxd_enc_text("abcd", b, sizeof(b)), 6);
	assert_int_equal(cxd_dec_text(b, 6, small, sizeof(small)), -EPROTO);
	assert_int_equal(cxd_enc_text("abc", b, sizeof(b)), 5);
	assert_int_equal(cxd_dec_text(b, 5, small, sizeof(small)), 0);
	assert_string_equal(small, "abc");
}

static void test_string_bad_bytes(void **state)
{
	const uint8_t bad[][5] = {
		{ 0, 3, 'a', 0, 'b' },	  /* NUL inside */
		{ 0, 3, 'a', '\n', 'b' }, /* control character */
		{ 0, 3, 'a', 0x7f, 'b' }, /* DEL */
		{ 0, 3, 'a', 0xc3, 'b' }, /* not ASCII */
	};
	const uint8_t good[5] = { 0, 3, ' ', '~', 'b' };
	char out[16];

	(void) state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(out, sizeof(out), "unchanged");
		assert_int_equal(cxd_dec_text(bad[i], 5, out, sizeof(out)),
				 -EPROTO);
		assert_string_equal(out, "unchanged");
	}
	assert_int_equal(cxd_dec_text(good, 5, out, sizeof(out)), 0);
	assert_string_equal(out, " ~b");
}

static void test_addr_len_over_max(void **state)
{
	struct cxd_addr_msg m;
	uint8_t b[CXD_MAX_PAYLOAD];
	ssize_t n;
	size_t off;

	(void) state;
	sample_addr(&m);
	m.addr_len = CXD_MAX_FABRIC_ADDR;
	n = cxd_enc_addr(&m, b, sizeof(b));
	assert_true(n > 0);
	/* Patch addr_len to max + 1 and supply the extra byte. */
	off = 2 + strlen(m.provider) + 2 + strlen(m.domain);
	put32(b + off, CXD_MAX_FABRIC_ADDR + 1);
	memmove(b + off + 4 + CXD_MAX_FABRIC_ADDR + 1,
		b + off + 4 + CXD_MAX_FABRIC_ADDR, 24);
	assert_int_equal(cxd_dec_addr(b, (size_t) n + 1, &m), -EPROTO);
	put32(b + off, 0xffffffffu);
	assert_int_equal(cxd_dec_addr(b, (size_t) n + 1, &m), -EPROTO);

	/* The encoder refuses too. */
	sample_addr(&m);
	m.addr_len = CXD_MAX_FABRIC_ADDR + 1;
	assert_true(cxd_enc_addr(&m, b, sizeof(b)) < 0);
}

/* ---- Encoders never pass cap */

static void check_enospc(enum kind k, const void *m)
{
	uint8_t b[CXD_MAX_PAYLOAD + 16];
	ssize_t full = codec(k, m, b, NULL, CXD_MAX_PAYLOAD);

	assert_true(full > 0);
	for (size_t cap = 0; cap < (size_t) full; cap++) {
		memset(b, 0xee, sizeof(b));
		assert_int_equal(codec(k, m, b, NULL, cap), -ENOSPC);
		for (size_t i = cap; i < sizeof(b); i++)
			assert_int_equal(b[i], 0xee);
	}
	assert_int_equal(codec(k, m, b, NULL, (size_t) full), full);
}

static void test_encoder_enospc(void **state)
{
	struct samples s;

	(void) state;
	samples_fill(&s, 0, "fine", 3, "some error text");
	for (int k = 0; k < K_COUNT; k++)
		check_enospc((enum kind) k, s.of[k]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hdr_round_trip),
		cmocka_unit_test(test_hdr_errors),
		cmocka_unit_test(test_msg_name),
		cmocka_unit_test(test_hello_round_trip),
		cmocka_unit_test(test_run_round_trip),
		cmocka_unit_test(test_accept_round_trip),
		cmocka_unit_test(test_addr_round_trip),
		cmocka_unit_test(test_barrier_round_trip),
		cmocka_unit_test(test_result_round_trip),
		cmocka_unit_test(test_text_round_trip),
		cmocka_unit_test(test_truncated_and_trailing),
		cmocka_unit_test(test_string_too_long),
		cmocka_unit_test(test_string_bad_bytes),
		cmocka_unit_test(test_addr_len_over_max),
		cmocka_unit_test(test_encoder_enospc),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
