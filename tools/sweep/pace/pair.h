/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep: a pair's runs through the engine (pair.c): latency
 * each way, then bandwidth each way, --repeat times interleaved, in the
 * turn given (its round, and which of the two it runs), and the figures
 * this rank led kept.
 */
#ifndef CXD_SWEEP_PAIR_H
#define CXD_SWEEP_PAIR_H

#include <stdint.h>

#include "engine/engine.h"
#include "measured.h"
#include "pace_mpi.h"

/* What measuring a pair needs: the context, the engine and where the
 * figures land (the turn, its round and what to run, comes with each
 * pair). */
struct sw_meter {
	const struct sw_ctx *c;
	struct sw_engine *eng;
	struct sw_measured *fig;
	uint64_t nfig;         /* figures this rank led (test jitter's key) */
};

/* keep(arg, k, d, f) gets each figure of repeat k this rank led. */
typedef void sw_keep_fn(void *arg, uint64_t k, const struct sw_dir *d,
			const struct sw_fig *f);
/* The runs with rank p in turn t (t->what's metrics), the lower rank
 * leading first: 0, or the engine's error (its why says). */
int sw_pair_runs(struct sw_meter *mt, const struct sw_turn *t, int p,
		 uint64_t repeat, const char *role, sw_keep_fn *keep,
		 void *arg);
/* The sweep's pair (a sw_measure_fn on a sw_meter): sw_pair_runs x
 * --repeat into mt->fig; a failure ends the job. */
void sw_measure_pair(void *meter, const struct sw_turn *t, int p);

#endif
