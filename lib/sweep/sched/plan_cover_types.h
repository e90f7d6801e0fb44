/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A covering plan's types (plan_cover.h builds one): few pairs chosen
 * from the fabric's routes so that every component of the job is
 * crossed, for sure, by k pairs whose sure crossings differ, and a
 * single bad component is the one every bad pair shares.
 *
 * The components: each rank's NIC, each link line, each bundle (the
 * link lines between two groups), each switch that carries a pair's
 * traffic (one with ranks, or one on a way: a spine, a router). A pair
 * crosses a component for sure when every one of its ways does (the
 * fabric's hash among the ways is unknown), maybe otherwise, with the
 * chance that the ways crossing it carry (their shares).
 */
#ifndef CXD_SWEEP_PLAN_COVER_TYPES_H
#define CXD_SWEEP_PLAN_COVER_TYPES_H

#include <stddef.h>

/* Sure crossings each component wants when the options say none: two,
 * so that a bad component shows as the one two bad pairs share. */
#define CXD_COVER_K 2

/* Unions of two signatures compared at most, else the check on two
 * faults is "not checked" (-1): 16 bytes each, 64 MB at this bound
 * (about 2900 components crossed for sure). */
#define CXD_COVER_TWO_MAX (1L << 22)

enum cxd_cover_kind {
	CXD_COVER_NIC,    /* id: the rank */
	CXD_COVER_LINK,   /* id: the link line's index in the map */
	CXD_COVER_BUNDLE, /* id < id2: the two groups */
	CXD_COVER_SWITCH, /* id: the switch */
	CXD_COVER_KINDS
};

/* The most any pair of the job does to a component. */
enum cxd_cover_reach {
	CXD_COVER_NONE,  /* no pair crosses it: it cannot be judged */
	CXD_COVER_MAYBE, /* some may (one of several equal spines) */
	CXD_COVER_SURE   /* some pair crosses it for sure */
};

struct cxd_cover_opts {
	int k;         /* sure crossings wanted; <= 0: CXD_COVER_K */
	int max_pairs; /* the most pairs chosen; <= 0: no limit */
	/* 1: every switch pair weighed at every cover step, the reference
	 * the lazy pick (plan_cover_lazy.h) equals; for tests and timing */
	int exhaustive;
};

struct cxd_cover_comp {
	int kind;     /* enum cxd_cover_kind */
	int id, id2;  /* id2: -1 but for a bundle */
	int reach;    /* enum cxd_cover_reach */
	int want;     /* sure crossings wanted: k, fewer where the job's
		       * pairs cross it for sure fewer times (0: none do) */
	int sure;     /* chosen pairs crossing it for sure */
	double maybe; /* expected crossings of the chosen pairs that
		       * cross it maybe (the sum of their chances) */
	int cls;      /* its class; -1: no chosen pair crosses it for sure */
};

struct cxd_cover_pair {
	int a, b; /* ranks, a < b */
};

struct cxd_cover_plan {
	/* The chosen pairs, round after round: round r is
	 * pair[round_at[r] .. round_at[r + 1]). No rank twice in a round;
	 * no link line loaded past its count (each pair adding one to
	 * every link line one of its ways crosses: the hash may put any
	 * two on one cable). */
	struct cxd_cover_pair *pair;
	int npair;
	int *round_at;
	int nround;
	/* What pair i crosses for sure: sure[sure_at[i] .. sure_at[i+1]),
	 * component indices. A bad component makes all of them bad. */
	size_t *sure_at;
	int *sure;
	/* What pair i may cross (some of its ways do, the fabric's hash
	 * picks): maybe[maybe_at[i] .. maybe_at[i+1]), components. A bad
	 * pair that no sure crossing explains may be one of their ways'. */
	size_t *maybe_at;
	int *maybe;
	/* Every component: NICs (rank order), link lines (map order),
	 * bundles, switches. */
	struct cxd_cover_comp *comp;
	int ncomp;
	/* Components the same chosen pairs cross for sure (one signature),
	 * which no outcome of the plan tells apart: class c is
	 * member[cls_at[c] .. cls_at[c + 1]); a class of one is named
	 * alone. Only components some chosen pair crosses for sure. */
	int *cls_at, *member;
	int ncls;
	int k;
	int nuncovered; /* no chosen pair crosses them for sure (those
			 * covered in expectation and nnone's too) */
	int nshort;     /* fewer sure crossings than wanted (max_pairs) */
	int nthin;      /* wanted fewer than k: too few pairs cross them */
	int nmaybe;     /* only ever crossed maybe: covered in expectation */
	int nmaybe_short; /* of those, expected crossings under k */
	int nnone;      /* no pair of the job crosses them at all */
	int nalike;     /* classes of two or more */
	int identifiable_one; /* components a single fault names alone */
	/* Two faults named: 1 no two component pairs (among those crossed
	 * for sure) have the same union of signatures, 0 some do, -1 not
	 * checked (more than CXD_COVER_TWO_MAX unions). A switch's
	 * signature holds its NICs' pairs out of it; their pairs on it (the
	 * anchors' ring) tell {NIC, its switch} from {another NIC there,
	 * the switch} where it has three ranks or more, not two (both
	 * NICs' one pair there is the same). */
	int identifiable_two;
	int capped; /* max_pairs stopped the choice */
};

#endif
