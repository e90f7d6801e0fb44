/* SPDX-License-Identifier: BSD-3-Clause */
/* The server's handshake state machine: every way through it, and out. */
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
#include "wire/hs.h"

#define PEER "192.0.2.7:40000"

/* One server: the tool, its configuration and the state machine. */
struct rig {
	struct cxd_hs_cfg cfg;
	struct cxd_hs hs;
	struct cxd_hs_reply reply;
	struct cxd_run_opts run; /* what the client will send */
	int local_calls;
	int local_ret;
};

static int local_check(void *arg, const struct cxd_run_opts *run, char *err,
		       size_t errlen)
{
	struct rig *r = arg;

	(void) run;
	r->local_calls++;
	if (r->local_ret)
		snprintf(err, errlen, "Insufficient 2M huge pages (test)");
	return r->local_ret;
}

static void rig_init(struct rig *r, const char *tool_name, const char *prov,
		     uint64_t max_mem)
{
	const struct cxd_tool *tool = cxd_tool_find(tool_name);
	struct cxd_cfg c;

	assert_non_null(tool);
	memset(r, 0, sizeof(*r));
	r->cfg.tool = tool;
	r->cfg.peer_role = "client";
	r->cfg.peer = PEER;
	r->cfg.provider = prov;
	r->cfg.max_mem = max_mem;
	r->cfg.local_check = local_check;
	r->cfg.arg = r;
	cxd_cfg_defaults(tool, &c);
	r->run = c.run;
	snprintf(r->run.provider, sizeof(r->run.provider), "tcp");
	cxd_hs_init(&r->hs, &r->cfg);
}

static int feed(struct rig *r, uint16_t type, const uint8_t *p, ssize_t len)
{
	assert_true(len >= 0);
	return cxd_hs_step(&r->hs, type, p, (uint32_t) len, &r->reply);
}

/* A HELLO from program prog at version ver, encoded into b[256]. */
static ssize_t hello_bytes(const char *prog, const char *ver, uint8_t *b)
{
	struct cxd_hello h;

	memset(&h, 0, sizeof(h));
	snprintf(h.program, sizeof(h.program), "%s", prog);
	snprintf(h.version, sizeof(h.version), "%s", ver);
	return cxd_enc_hello(&h, b, 256);
}

static int send_hello(struct rig *r, const char *prog, const char *ver)
{
	uint8_t b[256];

	return feed(r, CXD_MSG_HELLO, b, hello_bytes(prog, ver, b));
}

/* A server past the hello: rig_init, then the same tool's HELLO taken. */
static void rig_hello(struct rig *r, const char *tool_name, const char *prov,
		      uint64_t max_mem)
{
	rig_init(r, tool_name, prov, max_mem);
	assert_int_equal(send_hello(r, tool_name, "0.1.0"), 0);
}

static int send_run(struct rig *r)
{
	uint8_t b[CXD_MAX_PAYLOAD];

	return feed(r, CXD_MSG_RUN, b, cxd_enc_run(&r->run, b, sizeof(b)));
}

/* The reply is an ACCEPT with this status; its reason is the error. */
static void assert_accept(const struct rig *r, int status)
{
	struct cxd_accept a;

	assert_int_equal(r->reply.type, CXD_MSG_ACCEPT);
	assert_true(r->reply.len > 0);
	assert_int_equal(cxd_dec_accept(r->reply.buf, (size_t) r->reply.len,
					&a), 0);
	assert_int_equal(a.status, status);
	assert_string_equal(a.reason, status ? r->hs.err : "");
}

static void assert_failed(const struct rig *r, const char *msg)
{
	assert_int_equal(r->hs.state, CXD_HS_FAILED);
	assert_string_equal(r->hs.err, msg);
}

/* The RUN is refused: the run needs `need` bytes, the limit is `limit`. */
static void assert_over_max_mem(struct rig *r, uint64_t need, uint64_t limit)
{
	char want[160];

	assert_int_equal(send_run(r), -E2BIG);
	snprintf(want, sizeof(want), "this run needs %llu bytes of buffer "
		 "memory on the server, over its limit of %llu (--max-mem)",
		 (unsigned long long) need, (unsigned long long) limit);
	assert_failed(r, want);
}

/* A fresh server of the tool: its first frame (type, p, len) fails it
 * with rc and msg, and nothing is sent back. */
static void first_frame_fails(const char *tool, uint16_t type,
			      const uint8_t *p, ssize_t len, int rc,
			      const char *msg)
{
	struct rig r;

	rig_init(&r, tool, "", 0);
	assert_int_equal(feed(&r, type, p, len), rc);
	assert_failed(&r, msg);
	assert_int_equal(r.reply.type, 0);
}

/* The same, the first frame a HELLO from program prog at version ver. */
static void hello_fails(const char *tool, const char *prog, const char *ver,
			const char *msg)
{
	uint8_t b[256];

	first_frame_fails(tool, CXD_MSG_HELLO, b, hello_bytes(prog, ver, b),
			  -EPROTO, msg);
}

/* The RUN is refused with rc and msg, and the ACCEPT says so. */
static void assert_run_refused(struct rig *r, int rc, const char *msg)
{
	assert_int_equal(send_run(r), rc);
	assert_failed(r, msg);
	assert_accept(r, rc);
}

static void test_good_path(void **state)
{
	struct cxd_hello h;
	struct rig r;

	(void) state;
	rig_init(&r, "cxi_write_bw", "tcp", 0);
	assert_string_equal(cxd_hs_phase(&r.hs), "the handshake");
	assert_int_equal(cxd_hs_wants(&r.hs), CXD_MSG_HELLO);
	assert_int_equal(send_hello(&r, "cxi_write_bw", "0.1.0"), 0);
	assert_int_equal(r.hs.state, CXD_HS_RUN);
	assert_int_equal(r.reply.type, CXD_MSG_HELLO);
	assert_int_equal(cxd_dec_hello(r.reply.buf, (size_t) r.reply.len, &h),
			 0);
	assert_string_equal(h.program, "cxi_write_bw");
	assert_string_equal(h.version, CXD_SUITE_VERSION);

	/* Heartbeats may come at any time and change nothing. */
	assert_int_equal(feed(&r, CXD_MSG_HEARTBEAT, NULL, 0), 0);
	assert_int_equal(r.reply.type, 0);
	assert_int_equal(r.hs.state, CXD_HS_RUN);
	assert_string_equal(cxd_hs_phase(&r.hs), "the option exchange");

	r.run.iters = 77;
	assert_int_equal(send_run(&r), 0);
	assert_accept(&r, 0);
	assert_int_equal(r.hs.state, CXD_HS_DONE);
	assert_true(r.hs.have_run);
	assert_int_equal(r.hs.run.iters, 77);
	assert_string_equal(r.hs.run.provider, "tcp");
	assert_int_equal(r.local_calls, 1);

	/* Over: a further frame is a caller bug, not a state change. */
	assert_int_equal(send_run(&r), -EINVAL);
	assert_int_equal(r.hs.state, CXD_HS_DONE);
	assert_int_equal(r.reply.type, 0);
}

/* A newer revision of the same MAJ.MIN is welcome. */
static void test_revision_differs(void **state)
{
	struct rig r;

	(void) state;
	rig_init(&r, "cxi_atomic_lat", "", 0);
	assert_int_equal(send_hello(&r, "cxi_atomic_lat", "0.1.99"), 0);
	assert_int_equal(send_run(&r), 0);
	assert_accept(&r, 0);
}

static void test_wrong_order(void **state)
{
	struct rig r;

	(void) state;
	rig_init(&r, "cxi_write_bw", "", 0);
	assert_int_equal(send_run(&r), -EPROTO);
	assert_failed(&r, "the client " PEER " sent RUN during the handshake, "
		      "expected HELLO");
	assert_int_equal(r.reply.type, 0);
	/* Nothing more is taken once failed; the first error stays. */
	assert_int_equal(send_hello(&r, "cxi_write_bw", "0.1.0"), -EINVAL);
	assert_failed(&r, "the client " PEER " sent RUN during the handshake, "
		      "expected HELLO");

	rig_hello(&r, "cxi_write_bw", "", 0);
	assert_int_equal(send_hello(&r, "cxi_write_bw", "0.1.0"), -EPROTO);
	assert_failed(&r, "the client " PEER " sent HELLO during the option "
		      "exchange, expected RUN");

	first_frame_fails("cxi_write_bw", CXD_MSG_ADDR, NULL, 0, -EPROTO,
			  "the client " PEER " sent ADDR during the handshake, "
			  "expected HELLO");
}

static void test_handshake_client_error_text_reported(void **state)
{
	uint8_t b[64];

	(void) state;
	first_frame_fails("cxi_read_bw", CXD_MSG_ERROR, b,
			  cxd_enc_text("out of memory", b, sizeof(b)),
			  -EREMOTEIO,
			  "the client " PEER " reported: out of memory");
	b[0] = 0xff;
	first_frame_fails("cxi_read_bw", CXD_MSG_ERROR, b, 1, -EREMOTEIO,
			  "the client " PEER " reported: (unreadable error "
			  "text)");
}

/* Another program, or another MAJ.MIN of this one. */
static void test_bad_program_or_version(void **state)
{
	(void) state;
	hello_fails("cxi_write_bw", "cxi_read_bw", "0.1.0",
		    "Client and server program names do not match! The "
		    "client " PEER " runs 'cxi_read_bw', this side runs "
		    "'cxi_write_bw'");
	hello_fails("cxi_send_lat", "cxi_send_lat", "0.2.0",
		    "Client and server program versions do not match! "
		    "The client " PEER " has cxi_send_lat 0.2.0, this side "
		    CXD_SUITE_VERSION);
}

static void test_malformed_hello(void **state)
{
	static const uint8_t junk[] = { 0, 200, 'x' };

	(void) state;
	first_frame_fails("cxi_write_bw", CXD_MSG_HELLO, junk, sizeof(junk),
			  -EPROTO, "the client " PEER " sent a malformed "
			  "hello during the handshake");
}

static void test_invalid_options(void **state)
{
	static const uint8_t junk[] = { 1, 2, 3 };
	struct rig r;

	(void) state;
	rig_hello(&r, "cxi_write_bw", "", 0);
	r.run.iters = 0;
	assert_run_refused(&r, -EINVAL, "Invalid iteration count: 0");
	assert_false(r.hs.have_run);
	assert_int_equal(r.local_calls, 0);

	/* Atomics: the size must be the type's. */
	rig_hello(&r, "cxi_atomic_bw", "", 0);
	r.run.amo_type = CXD_T_UINT32;
	assert_run_refused(&r, -EINVAL,
			   "Invalid size: 8 for atomic type UINT32");

	rig_hello(&r, "cxi_write_bw", "", 0);
	assert_int_equal(feed(&r, CXD_MSG_RUN, junk, sizeof(junk)), -EPROTO);
	assert_failed(&r, "the client " PEER " sent malformed run options");
	assert_accept(&r, -EPROTO);
}

static void test_provider_rules(void **state)
{
	struct rig r;

	(void) state;
	rig_hello(&r, "cxi_write_bw", "verbs", 0);
	assert_run_refused(&r, -EINVAL, "the client chose provider 'tcp' but "
			   "this server was started with --provider verbs");

	rig_hello(&r, "cxi_write_bw", "", 0);
	r.run.provider[0] = '\0';
	assert_int_equal(send_run(&r), -EINVAL);
	assert_failed(&r, "the client named no provider");
}

/* Default cxi_write_bw: 256 x 64 KiB, which a one-way server receives. */
static void test_max_mem(void **state)
{
	const uint64_t need = 256ULL * 65536;
	struct rig r;

	(void) state;
	rig_hello(&r, "cxi_write_bw", "", need - 1);
	assert_over_max_mem(&r, 16777216, 16777215);
	assert_accept(&r, -E2BIG);
	assert_true(r.hs.have_run); /* as session.c had it: options taken */
	assert_int_equal(r.local_calls, 0);

	/* Exactly the limit is fine; -b doubles the server's share. */
	rig_hello(&r, "cxi_write_bw", "", need);
	assert_int_equal(send_run(&r), 0);
	rig_hello(&r, "cxi_write_bw", "", need);
	r.run.flags |= CXD_RUN_BIDIR;
	assert_over_max_mem(&r, 33554432, 16777216);
}

/* --max-mem limits what is mapped: a 2M-page run counts whole pages. */
static void test_max_mem_hugepages(void **state)
{
	struct rig r;

	(void) state;
	rig_hello(&r, "cxi_write_bw", "", 4096);
	r.run.min_size = r.run.max_size = 8;
	r.run.list_size = 1;
	r.run.hugepages = CXD_HP_2M;
	assert_over_max_mem(&r, 2097152, 4096);
}

static void test_local_check(void **state)
{
	struct rig r;

	(void) state;
	rig_hello(&r, "cxi_read_lat", "", 0);
	r.local_ret = -ENOMEM; /* asked at the RUN, after the hello */
	assert_run_refused(&r, -ENOMEM, "Insufficient 2M huge pages (test)");
	assert_int_equal(r.local_calls, 1);
}

/* The frame cap of the control channel, with its message. */
static void test_handshake_oversized_frame_refused(void **state)
{
	static uint8_t big[CXD_MAX_PAYLOAD + 1];

	(void) state;
	first_frame_fails("cxi_write_bw", CXD_MSG_HELLO, big, sizeof(big),
			  -EPROTO, "the client " PEER " sent a 4097-byte "
			  "HELLO message during the handshake, more than the "
			  "4096 expected");
}

static void test_version_mismatch(void **state)
{
	(void) state;
	assert_false(cxd_version_mismatch("0.1.0", "0.1.0"));
	assert_false(cxd_version_mismatch("0.1.7", "0.1.0"));
	assert_true(cxd_version_mismatch("0.2.0", "0.1.0"));
	assert_true(cxd_version_mismatch("1.1.0", "0.1.0"));
	assert_true(cxd_version_mismatch("0.10.0", "0.1.0"));
	assert_true(cxd_version_mismatch("0.1", "0.1.0"));
	assert_false(cxd_version_mismatch("x", "x"));
	assert_true(cxd_version_mismatch("", "0.1.0"));
}

/* Who maps what: the server only where it posts or is a target. */
static void test_memory_plan(void **state)
{
	const struct cxd_tool *wbw = cxd_tool_find("cxi_write_bw");
	const struct cxd_tool *slat = cxd_tool_find("cxi_send_lat");
	const struct cxd_tool *abw = cxd_tool_find("cxi_atomic_bw");
	struct cxd_cfg c;
	uint64_t tx, rx;

	(void) state;
	cxd_cfg_defaults(wbw, &c);
	cxd_plan_memory(wbw, &c.run, false, false, &tx, &rx);
	assert_int_equal(tx, 0);
	assert_int_equal(rx, 256 * 65536);
	cxd_plan_memory(wbw, &c.run, true, false, &tx, &rx);
	assert_int_equal(tx, 256 * 65536);
	assert_int_equal(rx, 0);
	c.run.buf_sz = 4096; /* --buf-sz caps the region */
	assert_int_equal(cxd_data_len(wbw, &c.run), 4096);

	cxd_cfg_defaults(slat, &c);
	assert_true(cxd_side_active(slat, &c.run, false)); /* ping-pong */
	cxd_plan_memory(slat, &c.run, false, false, &tx, &rx);
	assert_int_equal(tx, 8);
	assert_int_equal(rx, 8);

	cxd_cfg_defaults(abw, &c);
	c.run.flags = CXD_RUN_FETCHING;
	cxd_plan_memory(abw, &c.run, true, false, &tx, &rx);
	assert_int_equal(tx, 2 * 64 * 4096);
}

CXD_UNIT_MAIN(
	cmocka_unit_test(test_good_path),
	cmocka_unit_test(test_revision_differs),
	cmocka_unit_test(test_wrong_order),
	cmocka_unit_test(test_handshake_client_error_text_reported),
	cmocka_unit_test(test_bad_program_or_version),
	cmocka_unit_test(test_malformed_hello),
	cmocka_unit_test(test_invalid_options),
	cmocka_unit_test(test_provider_rules),
	cmocka_unit_test(test_max_mem),
	cmocka_unit_test(test_max_mem_hugepages),
	cmocka_unit_test(test_local_check),
	cmocka_unit_test(test_handshake_oversized_frame_refused),
	cmocka_unit_test(test_version_mismatch),
	cmocka_unit_test(test_memory_plan))
