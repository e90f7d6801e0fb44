/* SPDX-License-Identifier: BSD-3-Clause */
/* Control-channel wire format: pure encode/decode, no I/O (fuzzed). */
#ifndef CXD_PROTO_H
#define CXD_PROTO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "cxd/config.h"

#define CXD_PROTO_MAGIC 0x43584447u /* "CXDG" */
#define CXD_PROTO_VERSION 3 /* 2: GPU fields in the address message, validation verdicts; 3: --tclass */
#define CXD_HDR_LEN 12
#define CXD_MAX_PAYLOAD 4096
#define CXD_MAX_FABRIC_ADDR 256
#define CXD_TEXT_LEN 512

/*
 * Frame: magic u32, version u16, type u16, payload length u32, all
 * big-endian, then the payload. Every integer in a payload is big-endian;
 * every string is a u16 length then that many bytes (no NUL on the wire).
 */
enum cxd_msg_type {
	CXD_MSG_HELLO = 1, /* program name and version */
	CXD_MSG_RUN,       /* client's run options */
	CXD_MSG_ACCEPT,    /* server's verdict on the run options */
	CXD_MSG_ADDR,      /* fabric endpoint address and memory key */
	CXD_MSG_BARRIER,   /* sequence number */
	CXD_MSG_RESULT,    /* per-size figures */
	CXD_MSG_HEARTBEAT, /* empty; proves the peer is alive */
	CXD_MSG_ERROR,     /* text: the peer is giving up, and why */
	CXD_MSG_TYPE_END
};

struct cxd_hdr {
	uint32_t magic;
	uint16_t version;
	uint16_t type;
	uint32_t len;
};

struct cxd_hello {
	char program[CXD_NAME_LEN];
	char version[16];
};

struct cxd_accept {
	int32_t status; /* 0 = accepted, else a negative errno */
	char reason[CXD_TEXT_LEN];
};

struct cxd_addr_msg {
	char provider[CXD_NAME_LEN];
	char domain[CXD_NAME_LEN];
	uint32_t addr_len;
	uint8_t addr[CXD_MAX_FABRIC_ADDR];
	uint64_t key;      /* remote key of the target buffer */
	uint64_t rx_base;  /* address to target (0 when offsets are used) */
	uint64_t rx_len;   /* registered length of the target buffer */
	int32_t tx_gpu, rx_gpu; /* -t/-r of that side, -1 = system memory */
	int32_t gpu_type;       /* enum cxd_gpu_type in use, or -1 */
	uint32_t gpu_count;     /* devices its GPU runtime found */
	uint32_t uid;           /* effective user: shm needs the same on both */
};

struct cxd_result_msg {
	uint64_t size;
	uint64_t count;
	uint64_t elapsed_ns;
	uint32_t status; /* tool-specific, e.g. atomic verification */
};

const char *cxd_msg_name(uint16_t type);

/* Header: decode checks magic, version, type and length bound. */
void cxd_hdr_encode(const struct cxd_hdr *h, uint8_t out[CXD_HDR_LEN]);
int cxd_hdr_decode(const uint8_t in[CXD_HDR_LEN], struct cxd_hdr *h,
		   char *err, size_t errlen);

/*
 * Encoders return the payload length, or -ENOSPC when cap is too small.
 * Decoders return 0, or -EPROTO for a truncated, oversized or malformed
 * payload (trailing bytes included); strings come back NUL-terminated.
 */
ssize_t cxd_enc_hello(const struct cxd_hello *m, uint8_t *buf, size_t cap);
int cxd_dec_hello(const uint8_t *p, size_t len, struct cxd_hello *m);
ssize_t cxd_enc_run(const struct cxd_run_opts *m, uint8_t *buf, size_t cap);
int cxd_dec_run(const uint8_t *p, size_t len, struct cxd_run_opts *m);
ssize_t cxd_enc_accept(const struct cxd_accept *m, uint8_t *buf, size_t cap);
int cxd_dec_accept(const uint8_t *p, size_t len, struct cxd_accept *m);
ssize_t cxd_enc_addr(const struct cxd_addr_msg *m, uint8_t *buf, size_t cap);
int cxd_dec_addr(const uint8_t *p, size_t len, struct cxd_addr_msg *m);
ssize_t cxd_enc_barrier(uint32_t seq, uint8_t *buf, size_t cap);
int cxd_dec_barrier(const uint8_t *p, size_t len, uint32_t *seq);
ssize_t cxd_enc_result(const struct cxd_result_msg *m, uint8_t *buf,
		       size_t cap);
int cxd_dec_result(const uint8_t *p, size_t len, struct cxd_result_msg *m);
ssize_t cxd_enc_text(const char *text, uint8_t *buf, size_t cap);
int cxd_dec_text(const uint8_t *p, size_t len, char *text, size_t cap);

#endif
