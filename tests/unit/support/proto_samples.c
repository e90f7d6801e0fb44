/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit-test aid: sample control-channel messages (proto_samples.h). */
#include <stdio.h>
#include <string.h>

#include "proto_samples.h"

void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t) (v >> 24);
	p[1] = (uint8_t) (v >> 16);
	p[2] = (uint8_t) (v >> 8);
	p[3] = (uint8_t) v;
}

void sample_hello(struct cxd_hello *m)
{
	memset(m, 0, sizeof(*m));
	snprintf(m->program, sizeof(m->program), "cxi_write_bw");
	snprintf(m->version, sizeof(m->version), "0.1.0");
}

void sample_run(struct cxd_run_opts *m)
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

void sample_addr(struct cxd_addr_msg *m)
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

void sample_result(struct cxd_result_msg *m)
{
	memset(m, 0, sizeof(*m));
	m->size = 65536;
	m->count = 12345;
	m->elapsed_ns = 987654321;
	m->status = 0xffffffffu;
}
