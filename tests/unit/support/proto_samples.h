/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit-test aid: one filled-in message of each control-channel type and a
 * big-endian store, for the wire-format tests (test_proto.c,
 * test_proto_codec.c). Linked into every unit test (tests/tests.cmake).
 */
#ifndef CXD_TEST_PROTO_SAMPLES_H
#define CXD_TEST_PROTO_SAMPLES_H

#include <stdint.h>

#include "wire/proto.h"

void put32(uint8_t *p, uint32_t v);
void sample_hello(struct cxd_hello *m);
void sample_run(struct cxd_run_opts *m);
void sample_addr(struct cxd_addr_msg *m);
void sample_result(struct cxd_result_msg *m);

#endif
