/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The project's exit statuses, one list for every tool (the pair tools'
 * main, cxi_sweep, cxi_plot's documented codes): scripts tell "the
 * fabric is bad" from "the tool could not run" from "ask again".
 */
#ifndef CXD_BASE_EXIT_CODES_H
#define CXD_BASE_EXIT_CODES_H

enum cxd_exit {
	CXD_EXIT_OK = 0,
	CXD_EXIT_FAIL = 1,          /* the run failed (or sweep: its files) */
	CXD_EXIT_USAGE = 2,         /* bad option or value, unusable input */
	CXD_EXIT_OUTLIERS = 3,      /* FAIL: outliers confirmed, a bad NIC */
	CXD_EXIT_INCONCLUSIVE = 4,  /* sweep: too noisy or busy to vouch */
	CXD_EXIT_SIGNAL = 128,      /* + the signal's number, as shells do */
	CXD_EXIT_PIPE = 141,        /* output closed early: 128 + SIGPIPE */
};

#endif
