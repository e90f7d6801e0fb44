/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * TEST STAND-IN for HPE's <rdma/fi_cxi_ext.h>, which Debian's libfabric
 * does not install: only the names cxd uses, with the values fi_cxi(7)
 * documents, so the test build compiles cxd's fi_cxi_ext.h path here.
 * Never installed, never used by the tools.
 */
#ifndef CXD_STAND_IN_FI_CXI_EXT_H
#define CXD_STAND_IN_FI_CXI_EXT_H

#include <stdint.h>

#define CXD_FI_CXI_EXT_IS_STAND_IN 1

#define FI_CXI_HRP (1ULL << 60)
#define FI_CXI_UNRELIABLE (1ULL << 61)

struct cxi_auth_key {
	uint32_t svc_id;
	uint16_t vni;
};

/* fi_info->nic->prov_attr on cxi: the provider's own key choice. */
struct cxip_nic_attr {
	uint32_t version;
	const unsigned int addr;
	const unsigned int default_rgroup_id;
	const unsigned int default_vni;
};

#endif
