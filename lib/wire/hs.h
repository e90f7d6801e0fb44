/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hs, the handshake: the pre-fabric protocol as pure functions, with no
 * sockets, no clock and no allocation. The server's side is a state
 * machine fed one received frame at a time, so that a fuzzer can drive it
 * with hostile byte streams and sess_connect.c can drive it from the
 * control channel with the same messages:
 *
 *   HELLO  --HELLO-->  reply HELLO  --> RUN
 *   RUN    --RUN---->  reply ACCEPT --> DONE (status 0) or FAILED
 *   any    --other-->  FAILED ("sent X during Y, expected Z")
 */
#ifndef CXD_HANDSHAKE_H
#define CXD_HANDSHAKE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "cxd/config.h"
#include "cxd/opts.h"
#include "proto.h"
#include "cxd/tool.h"

enum cxd_hs_state {
	CXD_HS_HELLO,  /* waiting for the client's HELLO */
	CXD_HS_RUN,    /* waiting for the client's RUN options */
	CXD_HS_DONE,   /* options accepted: on to the address exchange */
	CXD_HS_FAILED, /* hs->err says why; nothing more is taken */
};

/* What the server knows before the client says anything. */
struct cxd_hs_cfg {
	const struct cxd_tool *tool;
	const char *peer_role; /* "client", for messages */
	const char *peer;      /* "127.0.0.1:40000", for messages */
	const char *provider;  /* core name given with --provider, "" = any */
	uint64_t max_mem;      /* --max-mem: 0 = no limit */
	/*
	 * Optional last check of accepted options against this host (free
	 * huge pages): 0, or a negative errno with a sentence in err.
	 */
	int (*local_check)(void *arg, const struct cxd_run_opts *run,
			   char *err, size_t errlen);
	void *arg;
};

/* A frame to send back; type 0 = none. len < 0: it could not be encoded. */
struct cxd_hs_reply {
	uint16_t type;
	ssize_t len;
	uint8_t buf[CXD_MAX_PAYLOAD];
};

struct cxd_hs {
	const struct cxd_hs_cfg *cfg;
	enum cxd_hs_state state;
	bool have_run; /* run holds options that passed validation */
	struct cxd_run_opts run;
	char who[160]; /* "the client 127.0.0.1:40000", for messages */
	char err[CXD_ERR_LEN];
};

void cxd_hs_init(struct cxd_hs *hs, const struct cxd_hs_cfg *cfg);
/* The phase a state waits in, for messages ("the option exchange"). */
const char *cxd_hs_phase(const struct cxd_hs *hs);
/* The frame type a state waits for (0 once DONE or FAILED). */
uint16_t cxd_hs_wants(const struct cxd_hs *hs);
/*
 * Take one received frame. Returns 0 (the reply may be empty: heartbeats)
 * or a negative errno with a sentence in hs->err and the state FAILED; a
 * refused RUN still has its ACCEPT reply (status = the error, reason =
 * hs->err), which the client must get. Once DONE or FAILED it takes
 * nothing more: -EINVAL, state and a failure's sentence unchanged.
 */
int cxd_hs_step(struct cxd_hs *hs, uint16_t type, const uint8_t *payload,
		uint32_t len, struct cxd_hs_reply *reply);

/* ---- Pieces both sides use. */

/* Our HELLO payload: program name and suite version. */
ssize_t cxd_hs_enc_hello(const char *program, uint8_t *buf, size_t cap);
/*
 * Judge the peer's HELLO payload: well-formed, the same program, a
 * version with the same MAJ.MIN. 0, or -EPROTO with a sentence in err.
 */
int cxd_hs_check_hello(const char *program, const char *peer_role,
		       const char *peer, const uint8_t *payload, uint32_t len,
		       char *err, size_t errlen);
/* True when two suite versions cannot work together (MAJ.MIN differ). */
bool cxd_version_mismatch(const char *a, const char *b);

/*
 * The buffer plan of one side, as the originals size it: here so that the
 * server can judge --max-mem before any session exists. both_roles: this
 * process is also the target (the loopback tool, a sweep rank).
 */
bool cxd_side_active(const struct cxd_tool *tool,
		     const struct cxd_run_opts *run, bool client_side);
uint64_t cxd_data_len(const struct cxd_tool *tool,
		      const struct cxd_run_opts *run);
void cxd_plan_memory(const struct cxd_tool *tool,
		     const struct cxd_run_opts *run, bool is_client,
		     bool both_roles, uint64_t *tx_p, uint64_t *rx_p);

#endif
