/*
 * Writes the fuzz seed corpus: one valid frame per message type.
 *   cc -std=c11 -D_GNU_SOURCE -Iinclude fuzz/gen_corpus.c lib/proto.c \
 *      -o /tmp/gen_corpus && /tmp/gen_corpus fuzz/corpus
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cxd/proto.h"

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

int main(int argc, char **argv)
{
	uint8_t b[CXD_MAX_PAYLOAD];
	struct cxd_result_msg res = { 65536, 1000, 123456789, 0 };
	const char *dir = argc > 1 ? argv[1] : "fuzz/corpus";
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
	return ret ? 1 : 0;
}
