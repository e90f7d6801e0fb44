/* SPDX-License-Identifier: BSD-3-Clause */
/* Control-channel wire format: the header and each message's round trip
 * (the rejections: test_proto_codec.c). */
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

/* ---- Header */

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

CXD_UNIT_MAIN(
	cmocka_unit_test(test_hdr_round_trip),
	cmocka_unit_test(test_hdr_errors),
	cmocka_unit_test(test_msg_name),
	cmocka_unit_test(test_hello_round_trip),
	cmocka_unit_test(test_run_round_trip),
	cmocka_unit_test(test_accept_round_trip),
	cmocka_unit_test(test_addr_round_trip),
	cmocka_unit_test(test_barrier_round_trip),
	cmocka_unit_test(test_result_round_trip),
	cmocka_unit_test(test_text_round_trip))
