/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer harness for the control-channel wire format. The input is
 * read as a frame: the header (when 12 bytes are there) and then the rest
 * as a payload that every decoder gets to try. Whatever decodes must
 * encode back to exactly the same bytes, or the harness aborts.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wire/proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void same(const uint8_t *want, size_t len, const uint8_t *got,
		 ssize_t n)
{
	if (n < 0 || (size_t) n != len || memcmp(want, got, len) != 0)
		abort();
}

static void fuzz_hdr(const uint8_t *data, size_t size)
{
	uint8_t out[CXD_HDR_LEN];
	char err[128];
	struct cxd_hdr h;

	if (size < CXD_HDR_LEN)
		return;
	if (cxd_hdr_decode(data, &h, err, sizeof(err)) == 0) {
		cxd_hdr_encode(&h, out);
		same(data, CXD_HDR_LEN, out, CXD_HDR_LEN);
	} else if (err[0] == '\0') {
		abort(); /* a rejection must say why */
	}
}

/* out has room for len + 1 bytes: encoding to exactly len must fit. */
static void fuzz_structs(const uint8_t *p, size_t len, uint8_t *out)
{
	struct cxd_hello hello;
	struct cxd_run_opts run;
	struct cxd_accept acc;
	struct cxd_addr_msg addr;
	struct cxd_result_msg res;

	if (cxd_dec_hello(p, len, &hello) == 0)
		same(p, len, out, cxd_enc_hello(&hello, out, len));
	if (cxd_dec_run(p, len, &run) == 0)
		same(p, len, out, cxd_enc_run(&run, out, len));
	if (cxd_dec_accept(p, len, &acc) == 0)
		same(p, len, out, cxd_enc_accept(&acc, out, len));
	if (cxd_dec_addr(p, len, &addr) == 0)
		same(p, len, out, cxd_enc_addr(&addr, out, len));
	if (cxd_dec_result(p, len, &res) == 0)
		same(p, len, out, cxd_enc_result(&res, out, len));
}

static void fuzz_small(const uint8_t *p, size_t len, uint8_t *out)
{
	char text[CXD_TEXT_LEN];
	uint32_t seq;

	if (cxd_dec_barrier(p, len, &seq) == 0)
		same(p, len, out, cxd_enc_barrier(seq, out, len));
	if (cxd_dec_text(p, len, text, sizeof(text)) == 0) {
		if (strlen(text) >= sizeof(text))
			abort();
		same(p, len, out, cxd_enc_text(text, out, len));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *p = size >= CXD_HDR_LEN ? data + CXD_HDR_LEN : data;
	size_t len = size >= CXD_HDR_LEN ? size - CXD_HDR_LEN : size;
	uint8_t *out = malloc(len + 1);

	if (out == NULL)
		return 0;
	fuzz_hdr(data, size);
	fuzz_structs(p, len, out);
	fuzz_small(p, len, out);
	free(out);
	return 0;
}
