/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Writes the fuzz seed corpora from real encoded messages:
 *   PROTO_DIR      one valid frame per message type (fuzz_proto);
 *   HANDSHAKE_DIR  client byte streams, several frames each, for every
 *                  tool: good runs and each way to be refused
 *                  (fuzz_handshake);
 *   BASELINE_DIR   a 3-rank --matrix file (fuzz_baseline; its JSON seeds
 *                  are written by hand).
 * Built as fuzz_gen_corpus with -DCXD_FUZZ=ON (fuzz/fuzz.cmake), then
 *   ./fuzz_gen_corpus ../fuzz/corpus ../fuzz/corpus-handshake \
 *       ../fuzz/corpus-baseline
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sweep/model/matrix.h"
#include "wire/hs.h"
#include "cxd/opts.h"
#include "wire/proto.h"

static int write_frame(const char *dir, const char *name, uint16_t type,
		       const uint8_t *payload, ssize_t len)
{
	struct cxd_hdr h = { CXD_PROTO_MAGIC, CXD_PROTO_VERSION, type, 0 };
	uint8_t hdr[CXD_HDR_LEN];
	char path[512];
	FILE *f;
	int ok;

	if (len < 0)
		return -1;
	h.len = (uint32_t) len;
	cxd_hdr_encode(&h, hdr);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (f == NULL) {
		perror(path);
		return -1;
	}
	ok = fwrite(hdr, 1, sizeof(hdr), f) == sizeof(hdr) &&
	     fwrite(payload, 1, (size_t) len, f) == (size_t) len;
	return fclose(f) == 0 && ok ? 0 : -1;
}

static int gen_structs(const char *dir, uint8_t *b, size_t cap)
{
	struct cxd_hello hello = { "cxi_write_bw", "0.1.0" };
	struct cxd_run_opts run = { .iters = 1000, .min_size = 1,
				    .max_size = 65536, .buf_sz = 1 << 20,
				    .buf_align = 64, .flags = 1,
				    .provider = "tcp" };
	struct cxd_accept ok = { 0, "" }, no = { -EINVAL, "too large" };
	struct cxd_addr_msg addr = { .provider = "cxi", .domain = "cxi0",
				     .addr_len = 8, .addr = { 1, 2, 3, 4 },
				     .key = 42, .rx_len = 4096 };
	int ret = 0;

	ret |= write_frame(dir, "hello", CXD_MSG_HELLO, b,
			   cxd_enc_hello(&hello, b, cap));
	ret |= write_frame(dir, "run", CXD_MSG_RUN, b,
			   cxd_enc_run(&run, b, cap));
	ret |= write_frame(dir, "accept_ok", CXD_MSG_ACCEPT, b,
			   cxd_enc_accept(&ok, b, cap));
	ret |= write_frame(dir, "accept_no", CXD_MSG_ACCEPT, b,
			   cxd_enc_accept(&no, b, cap));
	ret |= write_frame(dir, "addr", CXD_MSG_ADDR, b,
			   cxd_enc_addr(&addr, b, cap));
	return ret;
}

/* ---- Handshake streams: frames one after another, as on the wire. */

struct stream {
	uint8_t buf[4 * (CXD_HDR_LEN + CXD_MAX_PAYLOAD)];
	size_t len;
	int bad;
};

static void add(struct stream *st, uint16_t type, const uint8_t *payload,
		ssize_t len)
{
	struct cxd_hdr h = { CXD_PROTO_MAGIC, CXD_PROTO_VERSION, type, 0 };

	if (len < 0 || st->len + CXD_HDR_LEN + (size_t) len > sizeof(st->buf)) {
		st->bad = 1;
		return;
	}
	h.len = (uint32_t) len;
	cxd_hdr_encode(&h, st->buf + st->len);
	memcpy(st->buf + st->len + CXD_HDR_LEN, payload, (size_t) len);
	st->len += CXD_HDR_LEN + (size_t) len;
}

static void add_hello(struct stream *st, const char *program,
		      const char *version)
{
	struct cxd_hello h;
	uint8_t b[256];

	memset(&h, 0, sizeof(h));
	snprintf(h.program, sizeof(h.program), "%s", program);
	snprintf(h.version, sizeof(h.version), "%s", version);
	add(st, CXD_MSG_HELLO, b, cxd_enc_hello(&h, b, sizeof(b)));
}

static void add_run(struct stream *st, const struct cxd_run_opts *run)
{
	uint8_t b[CXD_MAX_PAYLOAD];

	add(st, CXD_MSG_RUN, b, cxd_enc_run(run, b, sizeof(b)));
}

static int write_stream(const char *dir, const char *tool, const char *name,
			const struct stream *st)
{
	char path[512];
	FILE *f;
	int ok;

	if (st->bad)
		return -1;
	snprintf(path, sizeof(path), "%s/%s-%s", dir, tool, name);
	f = fopen(path, "wb");
	if (f == NULL) {
		perror(path);
		return -1;
	}
	ok = fwrite(st->buf, 1, st->len, f) == st->len;
	return fclose(f) == 0 && ok ? 0 : -1;
}

/* HELLO from this tool, then RUN with its defaults changed by how. */
static int gen_run(const char *dir, const struct cxd_tool *t,
		   const char *name, void (*how)(struct cxd_run_opts *))
{
	struct stream st;
	struct cxd_cfg cfg;

	memset(&st, 0, sizeof(st));
	cxd_cfg_defaults(t, &cfg);
	snprintf(cfg.run.provider, sizeof(cfg.run.provider), "tcp");
	if (how)
		how(&cfg.run);
	add_hello(&st, t->name, CXD_SUITE_VERSION);
	add(&st, CXD_MSG_HEARTBEAT, NULL, 0);
	add_run(&st, &cfg.run);
	return write_stream(dir, t->name, name, &st);
}

static void small(struct cxd_run_opts *r)
{
	r->iters = 5;
	r->list_size = 1;
	r->buf_sz = 4096;
	r->flags |= CXD_RUN_BIDIR | CXD_RUN_FETCHING;
}

static void zero_iters(struct cxd_run_opts *r)
{
	r->iters = 0;
}

static void huge(struct cxd_run_opts *r)
{
	r->max_size = 1ULL << 30;
}

static void hp_1g(struct cxd_run_opts *r)
{
	r->hugepages = CXD_HP_1G;
}

static void no_prov(struct cxd_run_opts *r)
{
	r->provider[0] = '\0';
}

/* Out of order, wrong program or version, the peer giving up. */
static int gen_refusals(const char *dir, const struct cxd_tool *t)
{
	struct stream st;
	uint8_t b[64];
	int ret = 0;

	memset(&st, 0, sizeof(st));
	add_hello(&st, t->name, "9.9.9");
	ret |= write_stream(dir, t->name, "version", &st);
	memset(&st, 0, sizeof(st));
	add_hello(&st, t->name, CXD_SUITE_VERSION);
	add_hello(&st, t->name, CXD_SUITE_VERSION);
	ret |= write_stream(dir, t->name, "hello-twice", &st);
	memset(&st, 0, sizeof(st));
	add_hello(&st, t->name, CXD_SUITE_VERSION);
	add(&st, CXD_MSG_ERROR, b, cxd_enc_text("giving up", b, sizeof(b)));
	ret |= write_stream(dir, t->name, "error", &st);
	return ret;
}

static int gen_handshake(const char *dir)
{
	const struct cxd_tool *t;
	int ret = 0;

	for (unsigned i = 0; (t = cxd_tool_at(i)) != NULL; i++) {
		ret |= gen_run(dir, t, "ok", NULL);
		ret |= gen_run(dir, t, "small", small);
		ret |= gen_run(dir, t, "zero-iters", zero_iters);
		ret |= gen_run(dir, t, "huge", huge);
		ret |= gen_run(dir, t, "hugepages", hp_1g);
		ret |= gen_run(dir, t, "no-provider", no_prov);
		ret |= gen_refusals(dir, t);
	}
	return ret;
}

/* ---- A --matrix file of 3 ranks, as cxi_sweep --matrix writes one. */

static int gen_matrix(const char *dir)
{
	struct cxd_matrix_head h = { .n = 3, .size = 1048576, .repeat = 3,
				     .tol = { 0.1, 0.2 }, .provider = "tcp" };
	struct cxd_sweep_rank r = { "", "", "eth0" };
	unsigned char head[CXD_MATRIX_HEAD], rec[CXD_MATRIX_REC];
	double v[9];
	char path[512];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/matrix3", dir);
	f = fopen(path, "wb");
	if (f == NULL) {
		perror(path);
		return -1;
	}
	cxd_matrix_put_head(&h, head);
	ok = fwrite(head, 1, sizeof(head), f) == sizeof(head);
	for (int i = 0; i < 3; i++) {
		snprintf(r.host, sizeof(r.host), "nid%d", i + 1);
		snprintf(r.addr, sizeof(r.addr), "fi_sockaddr_in://10.0.0.%d:1",
			 i + 1);
		cxd_matrix_put_rank(&r, rec);
		ok &= fwrite(rec, 1, sizeof(rec), f) == sizeof(rec);
	}
	for (int m = 0; m < 2; m++) {
		for (int k = 0; k < 9; k++)
			v[k] = k % 4 ? (m ? 2.0 + k / 10.0 : 9000 + k) : NAN;
		ok &= fwrite(v, sizeof(double), 9, f) == 9;
	}
	return fclose(f) == 0 && ok ? 0 : -1;
}

int main(int argc, char **argv)
{
	uint8_t b[CXD_MAX_PAYLOAD];
	struct cxd_result_msg res = { 65536, 1000, 123456789, 0 };
	const char *dir = argc > 1 ? argv[1] : "fuzz/corpus";
	const char *hs_dir = argc > 2 ? argv[2] : "fuzz/corpus-handshake";
	int ret = gen_structs(dir, b, sizeof(b));

	ret |= write_frame(dir, "barrier", CXD_MSG_BARRIER, b,
			   cxd_enc_barrier(3, b, sizeof(b)));
	ret |= write_frame(dir, "result", CXD_MSG_RESULT, b,
			   cxd_enc_result(&res, b, sizeof(b)));
	ret |= write_frame(dir, "heartbeat", CXD_MSG_HEARTBEAT, b, 0);
	ret |= write_frame(dir, "error", CXD_MSG_ERROR, b,
			   cxd_enc_text("out of memory", b, sizeof(b)));
	ret |= write_frame(dir, "error_empty", CXD_MSG_ERROR, b,
			   cxd_enc_text("", b, sizeof(b)));
	ret |= gen_handshake(hs_dir);
	if (argc > 3)
		ret |= gen_matrix(argv[3]);
	return ret ? 1 : 0;
}
