/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer harness for the server's handshake (lib/wire/hs.c). The
 * input is a byte stream as a client could send it: it is cut into frames
 * with the real header decoder, as the control channel cuts them, and fed
 * to the state machine of every tool in the table, under a few server
 * configurations. The harness aborts when the machine
 *   - accepts run options that cxd_run_validate rejects, that break the
 *     server's --provider or --max-mem, or that it never saw whole;
 *   - fails without a sentence saying why, or with the wrong state;
 *   - answers with a frame that does not decode, or says other than it did.
 * It allocates nothing itself; the machine must not either (libFuzzer's
 * -malloc_limit_mb and -rss_limit_mb catch it if it does).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire/hs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond) \
	do { \
		if (!(cond)) \
			abort(); \
	} while (0)

/* Stands in for session.c's huge-page check: refuses 1G pages. */
static int no_1g_pages(void *arg, const struct cxd_run_opts *run, char *err,
		       size_t errlen)
{
	(void) arg;
	if (run->hugepages != CXD_HP_1G)
		return 0;
	snprintf(err, errlen, "Insufficient 1G huge pages (fuzz)");
	return -ENOMEM;
}

struct server {
	const char *provider;
	uint64_t max_mem;
	bool local_check;
};

static const struct server servers[] = {
	{ "", 0, false },          /* anything goes */
	{ "tcp", 1 << 20, true },  /* a careful one */
	{ "verbs", 4096, false },  /* a tight one */
};

static void check_hello_reply(const struct cxd_hs *hs,
			      const struct cxd_hs_reply *r)
{
	struct cxd_hello h;

	CHECK(hs->state == CXD_HS_RUN);
	CHECK(r->len > 0);
	CHECK(cxd_dec_hello(r->buf, (size_t) r->len, &h) == 0);
	CHECK(strcmp(h.program, hs->cfg->tool->name) == 0);
	CHECK(strcmp(h.version, CXD_SUITE_VERSION) == 0);
}

/* What an accepted run must satisfy, judged without the state machine. */
static void check_accepted(const struct cxd_hs *hs)
{
	const struct cxd_hs_cfg *c = hs->cfg;
	char err[CXD_ERR_LEN];
	uint64_t tx, rx;

	CHECK(hs->have_run);
	CHECK(cxd_run_validate(c->tool, &hs->run, err, sizeof(err)) == 0);
	CHECK(hs->run.provider[0] != '\0');
	CHECK(c->provider[0] == '\0' ||
	      strcmp(c->provider, hs->run.provider) == 0);
	cxd_plan_memory(c->tool, &hs->run, false, false, &tx, &rx);
	CHECK(tx <= UINT64_MAX - rx);
	CHECK(c->max_mem == 0 || tx + rx <= c->max_mem);
	CHECK(c->local_check == NULL || hs->run.hugepages != CXD_HP_1G);
}

static void check_accept_reply(const struct cxd_hs *hs,
			       const struct cxd_hs_reply *r, int ret)
{
	struct cxd_accept a;

	CHECK(r->len > 0);
	CHECK(cxd_dec_accept(r->buf, (size_t) r->len, &a) == 0);
	CHECK(a.status == ret);
	if (ret == 0) {
		CHECK(hs->state == CXD_HS_DONE);
		CHECK(a.reason[0] == '\0');
		check_accepted(hs);
	} else {
		CHECK(strncmp(a.reason, hs->err, sizeof(a.reason) - 1) == 0);
	}
}

/* One step's outcome: consistent state, reply and error text. */
static void check_step(const struct cxd_hs *hs, enum cxd_hs_state was,
		       const struct cxd_hs_reply *r, int ret)
{
	CHECK(memchr(hs->err, '\0', sizeof(hs->err)) != NULL);
	if (ret) {
		CHECK(ret < 0);
		CHECK(hs->state == CXD_HS_FAILED);
		CHECK(hs->err[0] != '\0');
	} else {
		CHECK(hs->state == was || hs->state == was + 1);
	}
	if (r->type == CXD_MSG_HELLO)
		check_hello_reply(hs, r);
	else if (r->type == CXD_MSG_ACCEPT)
		check_accept_reply(hs, r, ret);
	else
		CHECK(r->type == 0 && hs->state != CXD_HS_DONE);
	if (hs->state == CXD_HS_DONE)
		CHECK(was == CXD_HS_RUN && r->type == CXD_MSG_ACCEPT);
}

static void drive(const struct cxd_tool *tool, const struct server *srv,
		  const uint8_t *data, size_t size)
{
	struct cxd_hs_cfg cfg = {
		.tool = tool, .peer_role = "client", .peer = "192.0.2.1:1",
		.provider = srv->provider, .max_mem = srv->max_mem,
		.local_check = srv->local_check ? no_1g_pages : NULL,
	};
	struct cxd_hs_reply reply;
	struct cxd_hs hs;
	struct cxd_hdr h;
	size_t off = 0;

	cxd_hs_init(&hs, &cfg);
	while (size - off >= CXD_HDR_LEN &&
	       cxd_hdr_decode(data + off, &h, NULL, 0) == 0 &&
	       h.len <= size - off - CXD_HDR_LEN) {
		enum cxd_hs_state was = hs.state;
		int ret = cxd_hs_step(&hs, h.type, data + off + CXD_HDR_LEN,
				      h.len, &reply);

		check_step(&hs, was, &reply, ret);
		off += CXD_HDR_LEN + h.len;
		if (ret || hs.state == CXD_HS_DONE)
			break; /* the server stops taking frames here */
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct cxd_tool *tool;

	for (unsigned i = 0; (tool = cxd_tool_at(i)) != NULL; i++)
		for (size_t s = 0; s < sizeof(servers) / sizeof(servers[0]);
		     s++)
			drive(tool, &servers[s], data, size);
	return 0;
}
