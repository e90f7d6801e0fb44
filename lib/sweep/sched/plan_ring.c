/* SPDX-License-Identifier: BSD-3-Clause */
/* The ring plan: ring shifts, NICs only (plan_ring.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "plan_cover.h"
#include "plan_cover_class.h"
#include "plan_ring.h"

int cxd_cover_ring_max_shifts(int n)
{
	return n < 2 ? 0 : n / 2;
}

/* Shift s's pairs (i, i + s): all n of them, but half when 2s == n
 * (i + s and i name the same pair then). */
static int shift_pairs(int n, int s)
{
	return 2 * s == n ? n / 2 : n;
}

/* The pairs of shifts 1 .. shifts into pr, in shift order. */
static int ring_pairs(int n, int shifts, struct cxd_cover_pair *pr)
{
	int k = 0;

	for (int s = 1; s <= shifts; s++)
		for (int i = 0; i < shift_pairs(n, s); i++) {
			int j = (i + s) % n;

			pr[k++] = (struct cxd_cover_pair){ i < j ? i : j,
							   i < j ? j : i };
		}
	return k;
}

/* First fit: each pair in the first round where neither rank is yet;
 * a rank meets 2 * shifts pairs, so 4 * shifts rounds always do. */
static int pack(int n, int shifts, const struct cxd_cover_pair *pr, int np,
		struct cxd_cover_plan *p)
{
	int cap = 4 * shifts + 1, *rnd = malloc(((size_t) np + 1) *
						sizeof(int));
	int *fill = calloc((size_t) cap + 1, sizeof(int));
	unsigned char *busy = calloc((size_t) cap * (size_t) n, 1);
	int ret = rnd && fill && busy ? 0 : -ENOMEM;

	for (int i = 0; ret == 0 && i < np; i++) {
		int r = 0;

		while (busy[(size_t) r * n + pr[i].a] ||
		       busy[(size_t) r * n + pr[i].b])
			r++;
		busy[(size_t) r * n + pr[i].a] = busy[(size_t) r * n +
						      pr[i].b] = 1;
		rnd[i] = r;
		fill[r + 1]++;
		p->nround = r + 1 > p->nround ? r + 1 : p->nround;
	}
	for (int r = 0; ret == 0 && r < p->nround; r++) {
		p->round_at[r] = fill[r];
		fill[r + 1] += fill[r];
	}
	if (ret == 0)
		p->round_at[p->nround] = np;
	for (int i = 0; ret == 0 && i < np; i++)
		p->pair[fill[rnd[i]]++] = pr[i];
	free(rnd);
	free(fill);
	free(busy);
	return ret;
}

/* Every pair crosses its two NICs for sure and nothing maybe. */
static void crossings(int n, struct cxd_cover_plan *p)
{
	for (int i = 0; i <= p->npair; i++) {
		p->sure_at[i] = 2 * (size_t) i;
		p->maybe_at[i] = 0;
	}
	for (int i = 0; i < p->npair; i++) {
		p->sure[2 * i] = p->pair[i].a;
		p->sure[2 * i + 1] = p->pair[i].b;
	}
	for (int c = 0; c < n; c++)
		p->comp[c] = (struct cxd_cover_comp){ .kind = CXD_COVER_NIC,
			.id = c, .id2 = -1, .reach = CXD_COVER_SURE,
			.cls = -1 };
	for (int i = 0; i < p->npair; i++) {
		p->comp[p->pair[i].a].sure++;
		p->comp[p->pair[i].b].sure++;
	}
	for (int c = 0; c < n; c++)
		p->comp[c].want = p->comp[c].sure < p->k ? p->comp[c].sure :
				  p->k;
}

static int alloc_plan(int n, int np, struct cxd_cover_plan *p)
{
	size_t m = (size_t) np + 1;

	p->pair = malloc(m * sizeof(*p->pair));
	p->round_at = malloc((m + 1) * sizeof(int));
	p->sure_at = malloc(m * sizeof(size_t));
	p->sure = malloc(2 * m * sizeof(int));
	p->maybe_at = malloc(m * sizeof(size_t));
	p->maybe = malloc(sizeof(int));
	p->comp = calloc((size_t) n + 1, sizeof(*p->comp));
	return p->pair && p->round_at && p->sure_at && p->sure &&
	       p->maybe_at && p->maybe && p->comp ? 0 : -ENOMEM;
}

int cxd_cover_ring_build(int n, int shifts, struct cxd_cover_plan *p)
{
	struct cxd_cover_pair *pr;
	int np = 0, ret;

	memset(p, 0, sizeof(*p));
	if (n < 2 || shifts < 1 || shifts > cxd_cover_ring_max_shifts(n))
		return -EINVAL;
	for (int s = 1; s <= shifts; s++)
		np += shift_pairs(n, s);
	pr = malloc((size_t) np * sizeof(*pr));
	ret = pr ? alloc_plan(n, np, p) : -ENOMEM;
	p->k = CXD_COVER_K;
	p->npair = np;
	p->ncomp = n;
	if (ret == 0) {
		ring_pairs(n, shifts, pr);
		ret = pack(n, shifts, pr, np, p);
	}
	if (ret == 0) {
		crossings(n, p);
		ret = cxd_cover_sure_classes(p);
	}
	/* Two faults not checked: the unions of n NICs' signatures cost
	 * n^2 / 2 comparisons of every pair, and NICs are all it names. */
	p->identifiable_two = -1;
	free(pr);
	if (ret)
		cxd_cover_plan_free(p);
	return ret;
}
