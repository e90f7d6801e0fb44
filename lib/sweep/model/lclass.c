/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep's classes of link (lclass.h). */
#include <stdbool.h>
#include <stdlib.h>

#include "lclass.h"

enum cxd_lclass cxd_lclass_of(const int *sw, const int *grp, int a, int b)
{
	if (sw == NULL || sw[a] < 0 || sw[b] < 0)
		return CXD_LC_ANY;
	if (sw[a] == sw[b])
		return CXD_LC_SWITCH;
	if (grp != NULL && grp[a] >= 0 && grp[a] == grp[b])
		return CXD_LC_GROUP;
	return CXD_LC_ACROSS;
}

const char *cxd_lclass_name(enum cxd_lclass c, int groups)
{
	static const char *const name[CXD_LC_N] = {
		"on one switch", "within a group", "across groups",
		"unplaced",
	};

	if (c == CXD_LC_ACROSS && !groups)
		return "across switches";
	return (unsigned) c < CXD_LC_N ? name[c] : "?";
}

const char *cxd_lclass_key(enum cxd_lclass c)
{
	static const char *const key[CXD_LC_N] = {
		"switch", "group", "across", "any",
	};

	return (unsigned) c < CXD_LC_N ? key[c] : "?";
}

/* The first free rank b of class c with a, looking from a's far side
 * (the pairs spread over the fabric), or -1. */
static int partner(int n, const int *sw, const int *grp, const bool *used,
		   int a, enum cxd_lclass c)
{
	for (int j = 1; j < n; j++) {
		int b = (a + n / 2 + j) % n;

		if (b != a && !used[b] && cxd_lclass_of(sw, grp, a, b) == c)
			return b;
	}
	return -1;
}

/* Is there a pair of class c at all? Rank 0 and 1 of it are found in
 * one pass: a rank of another switch (group) than rank 0's, and so on. */
static bool present(int n, const int *sw, const int *grp, enum cxd_lclass c)
{
	int ns = 0, *first;
	bool yes = false;

	for (int i = 0; sw != NULL && i < n; i++)
		ns = sw[i] + 1 > ns ? sw[i] + 1 : ns;
	first = malloc(((size_t) ns + 1) * sizeof(int));
	if (sw == NULL || first == NULL) {
		free(first);
		return c == CXD_LC_ANY && n >= 2;
	}
	for (int i = 0; i < ns; i++)
		first[i] = -1;
	/* first[switch]: its first rank; a second one makes a pair of
	 * that switch; otherwise compare with every switch's first. */
	for (int b = 0; b < n && !yes; b++) {
		if (sw[b] < 0)
			continue;
		if (first[sw[b]] >= 0 && c == CXD_LC_SWITCH)
			yes = true;
		if (first[sw[b]] < 0)
			first[sw[b]] = b;
	}
	for (int s = 0; s < ns && !yes && c != CXD_LC_SWITCH; s++)
		for (int t = s + 1; t < ns && !yes && first[s] >= 0; t++)
			yes = first[t] >= 0 &&
			      cxd_lclass_of(sw, grp, first[s], first[t]) == c;
	free(first);
	return yes;
}

/* A stride through n ranks that visits every one of them, about n/per
 * apart (coprime with n: a stride sharing a factor with n cycles
 * through a few ranks only, and a class sampled after another found
 * them all taken). */
static int stride_for(int n, int per)
{
	int s = n / (per > 0 ? per : 1) + 1;

	for (;; s++) {
		int a = s, b = n;

		while (b != 0) {
			int t = a % b;

			a = b;
			b = t;
		}
		if (a == 1)
			return s;
	}
}

/* The next pair of class c from cursor *at on (visiting every rank
 * once), into out; false: none left. */
static bool next_pair(int n, const int *sw, const int *grp, bool *used,
		      int stride, int *at, enum cxd_lclass c,
		      struct cxd_pair *out)
{
	for (; *at < n; (*at)++) {
		int a = (int) (((long) *at * stride) % n), b;

		if (used[a] || (b = partner(n, sw, grp, used, a, c)) < 0)
			continue;
		used[a] = used[b] = true;
		*out = (struct cxd_pair){ a < b ? a : b, a < b ? b : a };
		(*at)++;
		return true;
	}
	return false;
}

int cxd_lclass_sample(int n, const int *sw, const int *grp, int per,
		      struct cxd_pair *out, enum cxd_lclass *cls)
{
	bool *used = calloc((size_t) n + 1, sizeof(bool));
	int k = 0, at[CXD_LC_N] = { 0 }, stride = stride_for(n, per);
	bool live[CXD_LC_N];

	if (used == NULL)
		return -1;
	for (int c = 0; c < CXD_LC_N; c++)
		live[c] = present(n, sw, grp, (enum cxd_lclass) c);
	/* A pair of each class in turn, so no class takes the ranks that
	 * a rarer one needs; ranks at a stride, so the pairs come from
	 * all over the fabric, not its first switch. */
	for (int got = 0; got < per; got++)
		for (int c = 0; c < CXD_LC_N; c++) {
			if (!live[c])
				continue;
			live[c] = next_pair(n, sw, grp, used, stride, &at[c],
					    (enum cxd_lclass) c, &out[k]);
			if (live[c])
				cls[k++] = (enum cxd_lclass) c;
		}
	free(used);
	return k;
}
