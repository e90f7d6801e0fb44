/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer harness for the --baseline reader (lib/sweep/model/
 * baseline.c): the input is the file, a sweep's JSON or a --matrix file
 * (told apart by its magic), a memfd read by its /proc/self/fd path. It
 * aborts when:
 *   - a refusal says nothing, or its message holds a control byte;
 *   - what loads has fewer than 2 ranks, no matrices, or a name the
 *     outputs cannot carry;
 *   - matching a run made of its own ranks (reversed) maps a rank out
 *     of range, or leaves a comparable metric without its references.
 * Its allocations are bounded by the file's size (libFuzzer's
 * -malloc_limit_mb catches one that is not).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/names.h"
#include "fuzz_file.h"
#include "sweep/model/baseline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define RANKS 8

static void name_ok(const char *s, size_t room, int may_be_empty)
{
	char why[96];

	if (may_be_empty && s[0] == '\0')
		return;
	if (cxd_name_check(s, room - 1, why, sizeof(why)) != 0)
		abort();
}

static void loaded_ok(const struct cxd_baseline *b)
{
	if (b->n < 2 || b->ranks == NULL || b->bw == NULL || b->lat == NULL)
		abort();
	name_ok(b->provider, sizeof(b->provider), 1);
	for (int i = 0; i < b->n; i++) {
		name_ok(b->ranks[i].host, sizeof(b->ranks[i].host), 0);
		name_ok(b->ranks[i].addr, sizeof(b->ranks[i].addr), 1);
		name_ok(b->ranks[i].nic, sizeof(b->ranks[i].nic), 1);
	}
}

/* Each reference is the file's figure of the mapped pair; none where a
 * rank is unmapped and on the diagonal. */
static void refs_ok(const struct cxd_baseline *b, const double *ref,
		    const double *m, int n)
{
	for (int i = 0; ref && i < n; i++)
		for (int j = 0; j < n; j++) {
			double want = b->map[i] < 0 || b->map[j] < 0 ||
				i == j ? NAN : m[(size_t) b->map[i] * b->n +
						 b->map[j]];
			double got = ref[(size_t) i * n + j];

			if (!(got == want || (isnan(got) && isnan(want))))
				abort();
		}
}

static void match_ok(struct cxd_baseline *b)
{
	struct cxd_sweep_rank r[RANKS];
	int n = b->n < RANKS ? b->n : RANKS;
	double *bw = NULL, *lat = NULL;

	for (int i = 0; i < n; i++)
		r[i] = b->ranks[b->n - 1 - i];
	if (cxd_baseline_match(b, r, n, b->provider, b->size, &bw, &lat))
		abort();
	for (int i = 0; i < n; i++)
		if (b->map[i] < -1 || b->map[i] >= b->n)
			abort();
	if ((b->use[0] && bw == NULL) || (b->use[1] && lat == NULL))
		abort();
	refs_ok(b, bw, b->bw, n);
	refs_ok(b, lat, b->lat, n);
	free(bw);
	free(lat);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64], err[1024] = "";
	struct cxd_baseline b;

	fuzz_file(data, size, path, sizeof(path));
	if (cxd_baseline_load(path, &b, err, sizeof(err)) != 0) {
		fuzz_refusal_ok(err);
		return 0;
	}
	loaded_ok(&b);
	match_ok(&b);
	cxd_baseline_free(&b);
	return 0;
}
