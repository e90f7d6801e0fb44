/* SPDX-License-Identifier: BSD-3-Clause */
/* --baseline FILE: read an earlier sweep's JSON, match its links. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>

#include <json-c/json.h>

#include "base/names.h"
#include "baseline.h"
#include "matrix.h"
#include "topo.h"

static const char *const metric_key[2] = { "bw", "lat" };

static int bad(const struct cxd_baseline *b, char *err, size_t len,
	       const char *what)
{
	snprintf(err, len, "the baseline '%s' is not a cxi_sweep --json "
		 "file: %s", b->path, what);
	return -EINVAL;
}

static json_object *get(json_object *o, const char *key, json_type t)
{
	json_object *v = NULL;

	if (o == NULL || !json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, t))
		return NULL;
	return v;
}

/* A name of the file (what says which, n its length) into out (size
 * bytes), whole; NULL: absent, out "". A name the outputs cannot carry
 * (base/names.h) is refused, never cut. out NULL: checked only. */
static int name_of(const struct cxd_baseline *b, const char *what,
		   const char *name, size_t n, char *out, size_t size,
		   char *err, size_t len)
{
	char why[96] = "a control character (U+0000)", show[CXD_NAME_SHOW_LEN];

	if (name == NULL || (strlen(name) == n &&
			     cxd_name_check(name, size - 1, why,
					    sizeof(why)) == 0)) {
		if (out)
			snprintf(out, size, "%s", name ? name : "");
		return 0;
	}
	cxd_name_show(name, show, sizeof(show));
	snprintf(err, len, "the baseline '%s': %s '%s' cannot be carried "
		 "into the outputs: %s", b->path, what, show, why);
	return -EINVAL;
}

static int rank_name(const struct cxd_baseline *b, json_object *r, int i,
		     const char *key, char *out, size_t size, char *err,
		     size_t len)
{
	json_object *v = get(r, key, json_type_string);
	char what[48];

	snprintf(what, sizeof(what), "rank %d's %s", i, key);
	return name_of(b, what, v ? json_object_get_string(v) : NULL,
		       v ? (size_t) json_object_get_string_len(v) : 0, out,
		       size, err, len);
}

static int read_ranks(struct cxd_baseline *b, json_object *a, char *err,
		      size_t len)
{
	int ret = 0;

	b->n = (int) json_object_array_length(a);
	if (b->n < 2)
		return bad(b, err, len, "fewer than 2 ranks");
	b->ranks = calloc((size_t) b->n, sizeof(*b->ranks));
	if (b->ranks == NULL)
		return bad(b, err, len, "out of memory");
	for (int i = 0; ret == 0 && i < b->n; i++) {
		json_object *r = json_object_array_get_idx(a, (size_t) i);
		struct cxd_sweep_rank *x = &b->ranks[i];

		if (!json_object_is_type(r, json_type_object) ||
		    get(r, "host", json_type_string) == NULL)
			return bad(b, err, len, "a rank without a host");
		ret = rank_name(b, r, i, "host", x->host, sizeof(x->host),
				err, len);
		if (ret == 0)
			ret = rank_name(b, r, i, "address", x->addr,
					sizeof(x->addr), err, len);
		if (ret == 0)
			ret = rank_name(b, r, i, "nic", x->nic,
					sizeof(x->nic), err, len);
	}
	return ret;
}

/* Every row of m (n rows, checked) an array of n: before the n x n
 * doubles are allocated, so their size is bounded by the file's. */
static bool square(json_object *m, int n)
{
	for (int i = 0; i < n; i++) {
		json_object *row = json_object_array_get_idx(m, (size_t) i);

		if (!json_object_is_type(row, json_type_array) ||
		    (int) json_object_array_length(row) != n)
			return false;
	}
	return true;
}

/* An n x n matrix of numbers or nulls. */
static int read_matrix(struct cxd_baseline *b, json_object *d,
		       const char *key, double **out, char *err, size_t len)
{
	json_object *m = get(d, key, json_type_array);
	char what[96];

	snprintf(what, sizeof(what), "'%s' is not a %d x %d matrix", key,
		 b->n, b->n);
	if (m == NULL || (int) json_object_array_length(m) != b->n ||
	    !square(m, b->n))
		return bad(b, err, len, what);
	*out = malloc((size_t) b->n * b->n * sizeof(double));
	if (*out == NULL)
		return bad(b, err, len, "out of memory");
	for (int i = 0; i < b->n; i++) {
		json_object *row = json_object_array_get_idx(m, (size_t) i);

		for (int j = 0; j < b->n; j++) {
			json_object *v = json_object_array_get_idx(row,
								   (size_t) j);

			(*out)[(size_t) i * b->n + j] =
				v == NULL ? NAN : json_object_get_double(v);
			if (v && !json_object_is_type(v, json_type_double) &&
			    !json_object_is_type(v, json_type_int))
				return bad(b, err, len, what);
		}
	}
	return 0;
}

static void read_tol(struct cxd_baseline *b, json_object *d)
{
	json_object *res = get(d, "resolution", json_type_object);

	for (int m = 0; m < 2; m++) {
		json_object *o = get(res, metric_key[m], json_type_object);
		json_object *t = get(o, "tolerance_pct", json_type_double);

		b->tol[m] = t ? json_object_get_double(t) / 100.0 : 0;
	}
}

static int bad_bin(const struct cxd_baseline *b, char *err, size_t len,
		   const char *what)
{
	snprintf(err, len, "the baseline '%s': %s", b->path, what);
	return -EINVAL;
}

static int short_read(const struct cxd_baseline *b, char *err, size_t len)
{
	snprintf(err, len, "the baseline '%s' is cut short: a --matrix file "
		 "of %d ranks holds %llu bytes", b->path, b->n,
		 (unsigned long long) cxd_matrix_bytes(b->n));
	return -EINVAL;
}

/* The names of rank i as read from a --matrix record: the host, and the
 * address and NIC where not empty, each one the outputs can carry. */
static int bin_names(const struct cxd_baseline *b, int i, char *err,
		     size_t len)
{
	const struct cxd_sweep_rank *x = &b->ranks[i];
	const char *key[3] = { "host", "address", "nic" };
	const char *v[3] = { x->host, x->addr[0] ? x->addr : NULL,
			     x->nic[0] ? x->nic : NULL };
	size_t room[3] = { sizeof(x->host), sizeof(x->addr), sizeof(x->nic) };
	char what[48];

	for (int k = 0; k < 3; k++) {
		snprintf(what, sizeof(what), "rank %d's %s", i, key[k]);
		if (name_of(b, what, v[k], v[k] ? strlen(v[k]) : 0, NULL,
			    room[k], err, len))
			return -EINVAL;
	}
	return 0;
}

static int read_bin(struct cxd_baseline *b, FILE *f, char *err, size_t len)
{
	unsigned char head[CXD_MATRIX_HEAD], rec[CXD_MATRIX_REC];
	struct cxd_matrix_head h;
	struct stat st;
	char why[160];
	size_t nn;

	if (fread(head, 1, sizeof(head), f) != sizeof(head))
		return bad_bin(b, err, len, "shorter than a --matrix head");
	if (cxd_matrix_get_head(head, &h, why, sizeof(why)) != 0)
		return bad_bin(b, err, len, why);
	b->n = h.n;
	/* A file too short for its head's count: said before its
	 * matrices are allocated (they are bounded by the file). */
	if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) &&
	    (uint64_t) st.st_size < cxd_matrix_bytes(h.n))
		return short_read(b, err, len);
	nn = (size_t) h.n * h.n;
	b->ranks = calloc((size_t) h.n, sizeof(*b->ranks));
	b->bw = malloc(nn * sizeof(double));
	b->lat = malloc(nn * sizeof(double));
	if (b->ranks == NULL || b->bw == NULL || b->lat == NULL)
		return bad_bin(b, err, len, "out of memory");
	for (int i = 0; i < h.n; i++) {
		if (fread(rec, 1, sizeof(rec), f) != sizeof(rec))
			return short_read(b, err, len);
		cxd_matrix_get_rank(rec, &b->ranks[i]);
		if (bin_names(b, i, err, len))
			return -EINVAL;
	}
	if (fread(b->bw, sizeof(double), nn, f) != nn ||
	    fread(b->lat, sizeof(double), nn, f) != nn)
		return short_read(b, err, len);
	if (name_of(b, "the provider", h.provider[0] ? h.provider : NULL,
		    strlen(h.provider), b->provider, sizeof(b->provider), err,
		    len))
		return -EINVAL;
	b->size = h.size;
	b->tol[0] = h.tol[0];
	b->tol[1] = h.tol[1];
	return 0;
}

/* An earlier run's --matrix file (binary, any scale). */
static int load_bin(const char *path, struct cxd_baseline *b, char *err,
		    size_t len)
{
	FILE *f = fopen(path, "rb");
	int ret;

	if (f == NULL) {
		snprintf(err, len, "cannot read the baseline '%s': %s", path,
			 strerror(errno));
		return -EINVAL;
	}
	ret = read_bin(b, f, err, len);
	fclose(f);
	if (ret)
		cxd_baseline_free(b);
	return ret;
}

static int load(const char *path, struct cxd_baseline *b, char *err,
		size_t len)
{
	json_object *d, *t, *opt;
	int ret;

	memset(b, 0, sizeof(*b));
	snprintf(b->path, sizeof(b->path), "%s", path);
	if (cxd_matrix_is(path))
		return load_bin(path, b, err, len);
	d = json_object_from_file(path);
	if (d == NULL) {
		FILE *f = fopen(path, "r");

		snprintf(err, len, "cannot read the baseline '%s': %s", path,
			 f ? "not valid JSON" : strerror(errno));
		if (f)
			fclose(f);
		return -EINVAL;
	}
	t = get(d, "tool", json_type_string);
	opt = get(d, "options", json_type_object);
	if (t == NULL || strcmp(json_object_get_string(t), "cxi_sweep") != 0)
		ret = bad(b, err, len, "no \"tool\": \"cxi_sweep\"");
	else if (get(d, "ranks", json_type_array) == NULL)
		ret = bad(b, err, len, "no \"ranks\" list");
	else
		ret = read_ranks(b, get(d, "ranks", json_type_array), err, len);
	if (ret == 0)
		ret = read_matrix(b, d, "bw_mb_s", &b->bw, err, len);
	if (ret == 0)
		ret = read_matrix(b, d, "lat_us", &b->lat, err, len);
	t = get(d, "provider", json_type_string);
	if (ret == 0)
		ret = name_of(b, "the provider", t ? json_object_get_string(t) :
			      NULL, t ? (size_t) json_object_get_string_len(t) :
			      0, b->provider, sizeof(b->provider), err, len);
	if (ret == 0) {
		t = get(opt, "size", json_type_int);
		b->size = t ? (uint64_t) json_object_get_int64(t) : 0;
		read_tol(b, d);
	}
	json_object_put(d);
	if (ret)
		cxd_baseline_free(b);
	return ret;
}

int cxd_baseline_load(const char *path, struct cxd_baseline *b, char *err,
		      size_t len)
{
	int ret = load(path, b, err, len);

	if (ret)
		cxd_name_sanitize(err, len); /* it may quote the file */
	return ret;
}

void cxd_baseline_free(struct cxd_baseline *b)
{
	free(b->ranks);
	free(b->bw);
	free(b->lat);
	free(b->map);
	b->ranks = NULL;
	b->bw = b->lat = NULL;
	b->map = NULL;
}

/* How many ranks of r (count n) have this host and NIC / this node. */
static int count_hostnic(const struct cxd_sweep_rank *r, int n,
			 const struct cxd_sweep_rank *x)
{
	int k = 0;

	for (int i = 0; i < n; i++)
		k += strcmp(r[i].host, x->host) == 0 &&
		     strcmp(r[i].nic, x->nic) == 0;
	return k;
}

static int count_node(const struct cxd_sweep_rank *r, int n,
		      const char *node)
{
	char other[sizeof(r->addr)];
	int k = 0;

	for (int i = 0; i < n; i++) {
		cxd_topo_addr_node(r[i].addr, other, sizeof(other));
		k += node[0] && strcmp(other, node) == 0;
	}
	return k;
}

/* The file's rank for this run's rank x: by host and NIC when that names
 * one rank in both runs, else by the address's node; -1: none. */
static int match_one(const struct cxd_baseline *b,
		     const struct cxd_sweep_rank *r, int n,
		     const struct cxd_sweep_rank *x, int *by_addr)
{
	char node[sizeof(x->addr)], other[sizeof(x->addr)];

	if (count_hostnic(r, n, x) == 1 &&
	    count_hostnic(b->ranks, b->n, x) == 1)
		for (int i = 0; i < b->n; i++)
			if (strcmp(b->ranks[i].host, x->host) == 0 &&
			    strcmp(b->ranks[i].nic, x->nic) == 0)
				return i;
	cxd_topo_addr_node(x->addr, node, sizeof(node));
	if (count_node(r, n, node) != 1 || count_node(b->ranks, b->n, node) != 1)
		return -1;
	for (int i = 0; i < b->n; i++) {
		cxd_topo_addr_node(b->ranks[i].addr, other, sizeof(other));
		if (strcmp(other, node) == 0) {
			*by_addr += 1;
			return i;
		}
	}
	return -1;
}

static void note(struct cxd_baseline *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void note(struct cxd_baseline *b, const char *fmt, ...)
{
	va_list ap;

	if (b->nnotes >= CXD_BASE_NOTES)
		return;
	va_start(ap, fmt);
	vsnprintf(b->notes[b->nnotes++], sizeof(b->notes[0]), fmt, ap);
	va_end(ap);
}

static double *per_link(const struct cxd_baseline *b, const double *m, int n)
{
	double *out = malloc((size_t) n * n * sizeof(double));

	if (out == NULL)
		return NULL;
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			int bi = b->map[i], bj = b->map[j];

			out[(size_t) i * n + j] = bi < 0 || bj < 0 || i == j ?
				NAN : m[(size_t) bi * b->n + bj];
		}
	return out;
}

int cxd_baseline_match(struct cxd_baseline *b, const struct cxd_sweep_rank *r,
		       int n, const char *provider, uint64_t size, double **bw,
		       double **lat)
{
	int by_addr = 0;

	*bw = *lat = NULL;
	b->map = malloc((size_t) n * sizeof(int));
	if (b->map == NULL)
		return -ENOMEM;
	b->matched = 0;
	for (int i = 0; i < n; i++) {
		b->map[i] = match_one(b, r, n, &r[i], &by_addr);
		b->matched += b->map[i] >= 0;
	}
	b->by = by_addr == 0 ? "host and NIC" :
		by_addr == b->matched ? "address (host names repeat)" :
					"host and NIC, or address";
	b->use[0] = b->use[1] = b->matched >= 2;
	if (strcmp(b->provider, provider) != 0) {
		note(b, "provider %s there, %s here: links not compared",
		     b->provider[0] ? b->provider : "(none)", provider);
		b->use[0] = b->use[1] = false;
	} else if (b->size != size) {
		note(b, "transfer size %llu B there, %llu B here: bandwidth "
		     "not compared", (unsigned long long) b->size,
		     (unsigned long long) size);
		b->use[0] = false;
	}
	if (b->matched < n)
		note(b, "%d of this run's %d ranks are not in it: their links "
		     "are not compared", n - b->matched, n);
	if (b->matched < b->n)
		note(b, "%d of its %d ranks are not in this run", b->n -
		     b->matched, b->n);
	if (b->use[0] && (*bw = per_link(b, b->bw, n)) == NULL)
		return -ENOMEM;
	if (b->use[1] && (*lat = per_link(b, b->lat, n)) == NULL)
		return -ENOMEM;
	return 0;
}
