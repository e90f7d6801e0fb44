/* SPDX-License-Identifier: BSD-3-Clause */
/* A topology's names indexed while it is read (topo_index.h): open
 * addressing over the names where they are kept, no copy of them. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "topo_index.h"

struct cxd_topo_index {
	int *slot;                  /* 3 * entry + kind; -1: empty */
	size_t nslot;               /* a power of two, or 0 */
	size_t used;
	int indexed[CXD_TOPO_IX_KINDS]; /* entries of each kind in slots */
	int room[CXD_TOPO_IX_KINDS];    /* each list's room */
};

static const char *name_of(const struct cxd_topo *t, int kind, int i)
{
	return kind == CXD_TOPO_IX_LINE ? t->l[i].name :
	       kind == CXD_TOPO_IX_SWITCH ? t->switch_name[i] :
	       t->group_name[i];
}

static int count_of(const struct cxd_topo *t, int kind)
{
	return kind == CXD_TOPO_IX_LINE ? t->nl :
	       kind == CXD_TOPO_IX_SWITCH ? t->nswitch : t->ngroup;
}

/* FNV-1a of the name, the kind mixed in. */
static size_t hash(const char *s, int kind)
{
	uint64_t h = 1469598103934665603ULL ^ (uint64_t) kind;

	for (; *s; s++)
		h = (h ^ (unsigned char) *s) * 1099511628211ULL;
	return (size_t) (h ^ (h >> 29));
}

/* The slot holding kind's name, or the empty one where it would go. */
static size_t probe(const struct cxd_topo *t, int kind, const char *name)
{
	const struct cxd_topo_index *x = t->index;
	size_t i = hash(name, kind) & (x->nslot - 1);

	while (x->slot[i] >= 0 && (x->slot[i] % 3 != kind ||
	       strcmp(name_of(t, kind, x->slot[i] / 3), name) != 0))
		i = (i + 1) & (x->nslot - 1);
	return i;
}

/* Twice the slots, every entry indexed again. */
static int rehash(struct cxd_topo *t)
{
	struct cxd_topo_index *x = t->index;
	size_t n = x->nslot ? 2 * x->nslot : 64;
	int *old = x->slot, *slot = malloc(n * sizeof(int));
	size_t nold = x->nslot;

	if (slot == NULL)
		return -ENOMEM;
	memset(slot, 0xff, n * sizeof(int)); /* -1 everywhere */
	x->slot = slot;
	x->nslot = n;
	for (size_t i = 0; i < nold; i++)
		if (old[i] >= 0)
			slot[probe(t, old[i] % 3, name_of(t, old[i] % 3,
							  old[i] / 3))] = old[i];
	free(old);
	return 0;
}

/* The entries added since the last call, into their slots. */
static int catch_up(struct cxd_topo *t)
{
	struct cxd_topo_index *x = t->index;

	for (int k = 0; k < CXD_TOPO_IX_KINDS; k++)
		while (x->indexed[k] < count_of(t, k)) {
			int i = x->indexed[k];

			if (2 * (x->used + 1) > x->nslot && rehash(t) != 0)
				return -ENOMEM;
			x->slot[probe(t, k, name_of(t, k, i))] = 3 * i + k;
			x->used++;
			x->indexed[k]++;
		}
	return 0;
}

static int have_index(struct cxd_topo *t)
{
	if (t->index == NULL)
		t->index = calloc(1, sizeof(*t->index));
	return t->index ? 0 : -ENOMEM;
}

int cxd_topo_find(struct cxd_topo *t, enum cxd_topo_ix kind,
		  const char *name)
{
	size_t i;

	if (have_index(t) != 0 || catch_up(t) != 0)
		return -ENOMEM;
	if (t->index->nslot == 0)
		return -1;
	i = probe(t, kind, name);
	return t->index->slot[i] < 0 ? -1 : t->index->slot[i] / 3;
}

int cxd_topo_grow(struct cxd_topo *t, enum cxd_topo_ix kind, void **list,
		  int n, size_t size)
{
	int *room;
	void *grown;

	if (have_index(t) != 0)
		return -ENOMEM;
	room = &t->index->room[kind];
	if (*list != NULL && n < *room)
		return 0;
	grown = realloc(*list, (size_t) (n ? 2 * n : 8) * size);
	if (grown == NULL)
		return -ENOMEM;
	*list = grown;
	*room = n ? 2 * n : 8;
	return 0;
}

void cxd_topo_index_free(struct cxd_topo *t)
{
	if (t->index)
		free(t->index->slot);
	free(t->index);
	t->index = NULL;
}
