/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's binary matrix file: layout and its checks (pure). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "matrix.h"

#define ENDIAN_MARK 0x01020304u

/* Field offsets in the head. */
enum { H_VER = 8, H_MARK = 12, H_N = 16, H_SIZE = 24, H_REP = 32,
       H_TOL = 40, H_PROV = 56 };
enum { R_HOST = 0, R_ADDR = 256, R_NIC = 416, R_NIC_LEN = 64 };

/* A string into a zeroed field of len bytes, NUL kept. */
static void put_str(unsigned char *out, const char *s, size_t len)
{
	size_t n = strnlen(s, len - 1);

	memcpy(out, s, n);
}

void cxd_matrix_put_head(const struct cxd_matrix_head *h, unsigned char *out)
{
	uint32_t ver = CXD_MATRIX_VERSION, mark = ENDIAN_MARK;
	uint32_t n = (uint32_t) h->n;

	memset(out, 0, CXD_MATRIX_HEAD);
	memcpy(out, CXD_MATRIX_MAGIC, 8);
	memcpy(out + H_VER, &ver, 4);
	memcpy(out + H_MARK, &mark, 4);
	memcpy(out + H_N, &n, 4);
	memcpy(out + H_SIZE, &h->size, 8);
	memcpy(out + H_REP, &h->repeat, 8);
	memcpy(out + H_TOL, h->tol, 16);
	put_str(out + H_PROV, h->provider, 64);
}

int cxd_matrix_get_head(const unsigned char *in, struct cxd_matrix_head *h,
			char *err, size_t len)
{
	uint32_t ver, mark, n;

	memset(h, 0, sizeof(*h));
	memcpy(&ver, in + H_VER, 4);
	memcpy(&mark, in + H_MARK, 4);
	memcpy(&n, in + H_N, 4);
	if (memcmp(in, CXD_MATRIX_MAGIC, 8) != 0) {
		snprintf(err, len, "not a cxi_sweep --matrix file");
		return -EINVAL;
	}
	if (mark != ENDIAN_MARK || ver != CXD_MATRIX_VERSION) {
		snprintf(err, len, "a --matrix file of version %u or of another "
			 "byte order (this build reads version %d)", ver,
			 CXD_MATRIX_VERSION);
		return -EINVAL;
	}
	if (n < 2 || n > (1u << 20)) {
		snprintf(err, len, "a --matrix file of %u ranks", n);
		return -EINVAL;
	}
	h->n = (int) n;
	memcpy(&h->size, in + H_SIZE, 8);
	memcpy(&h->repeat, in + H_REP, 8);
	memcpy(h->tol, in + H_TOL, 16);
	memcpy(h->provider, in + H_PROV, 63);
	return 0;
}

void cxd_matrix_put_rank(const struct cxd_sweep_rank *r, unsigned char *out)
{
	memset(out, 0, CXD_MATRIX_REC);
	put_str(out + R_HOST, r->host, R_ADDR - R_HOST);
	put_str(out + R_ADDR, r->addr, R_NIC - R_ADDR);
	put_str(out + R_NIC, r->nic, R_NIC_LEN);
}

void cxd_matrix_get_rank(const unsigned char *in, struct cxd_sweep_rank *r)
{
	memset(r, 0, sizeof(*r));
	memcpy(r->host, in + R_HOST, sizeof(r->host) - 1);
	memcpy(r->addr, in + R_ADDR, sizeof(r->addr) - 1);
	memcpy(r->nic, in + R_NIC, sizeof(r->nic) - 1);
}

uint64_t cxd_matrix_rank_off(int i)
{
	return CXD_MATRIX_HEAD + (uint64_t) i * CXD_MATRIX_REC;
}

uint64_t cxd_matrix_row_off(int n, int m, int i)
{
	uint64_t un = (uint64_t) n;

	return cxd_matrix_rank_off(n) + ((uint64_t) m * un + (uint64_t) i) *
					 un * sizeof(double);
}

uint64_t cxd_matrix_bytes(int n)
{
	return cxd_matrix_row_off(n, 2, 0);
}

int cxd_matrix_is(const char *path)
{
	char magic[8];
	FILE *f = fopen(path, "rb");
	int is;

	if (f == NULL)
		return 0;
	is = fread(magic, 1, 8, f) == 8 && memcmp(magic, CXD_MATRIX_MAGIC,
						   8) == 0;
	fclose(f);
	return is;
}
