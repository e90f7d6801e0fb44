/* SPDX-License-Identifier: BSD-3-Clause */
/* Control-channel wire format: every way to reject input (cut, trailing,
 * malformed strings and addresses, no room); round trips: test_proto.c. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support/unit_main.h"
#include "wire/proto.h"
#include "support/proto_samples.h"

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

CXD_UNIT_MAIN(
	cmocka_unit_test(test_truncated_and_trailing),
	cmocka_unit_test(test_string_too_long),
	cmocka_unit_test(test_string_bad_bytes),
	cmocka_unit_test(test_addr_len_over_max),
	cmocka_unit_test(test_encoder_enospc))
