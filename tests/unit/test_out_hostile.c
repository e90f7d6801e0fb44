/* SPDX-License-Identifier: BSD-3-Clause */
/* Every hostile name the inputs carry (tests/hostile_names.txt), as a
 * host, NIC, switch and group name, through every writer of cxi_sweep:
 * the text names it whole, the CSV quotes it (RFC 4180) and reads back,
 * the OpenMetrics label escapes it and reads back, the drain list has it
 * as one field of one line, the JSON parses back to it (issue 51). */
#include <json-c/json.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cxd/config.h"
#include "support/hostile.h"
#include "support/tmp_text.h"
#include "support/unit_main.h"
#include "sweep/result/out.h"
#include "sweep/result/out_files.h"
#include "sweep/result/out_text.h"
#include "sweep/result/verdict.h"

#define N 4

/* Ranks 2 and 3 on switch 1 of group 1, rank 3 the name's host (its NIC
 * too where 63 bytes hold it); suspects: rank 3 (bandwidth), switch 1
 * (latency), and an outlier of each. */
struct world {
	char gname[2][CXD_TOPO_NAME], sname[2][CXD_TOPO_NAME];
	struct cxd_sweep_rank ranks[N];
	struct cxd_topo topo;
	struct cxd_topo_map tm;
	struct cxd_suspect sus[2];
	struct cxd_outlier out[2];
	struct cxd_rules rules;
	struct cxd_cfg cfg;
	double bw[N * N], lat[N * N], med[2 * N];
	struct cxd_sweep_res r;
};

static const int sof[N] = { 0, 0, 1, 1 }, gof[N] = { 0, 0, 1, 1 };

static void world(struct world *w, const char *name)
{
	memset(w, 0, sizeof(*w));
	snprintf(w->gname[0], CXD_TOPO_NAME, "g0");
	snprintf(w->sname[0], CXD_TOPO_NAME, "s0");
	snprintf(w->gname[1], CXD_TOPO_NAME, "%s", name);
	snprintf(w->sname[1], CXD_TOPO_NAME, "%s", name);
	for (int i = 0; i < N; i++) {
		snprintf(w->ranks[i].host, 256, "nid%d", i);
		snprintf(w->ranks[i].addr, 160, "a%d", i);
		snprintf(w->ranks[i].nic, CXD_NAME_LEN, "cxi0");
		w->med[2 * i] = 1000;
		w->med[2 * i + 1] = 2;
	}
	snprintf(w->ranks[3].host, 256, "%s", name);
	if (strlen(name) < CXD_NAME_LEN)
		snprintf(w->ranks[3].nic, CXD_NAME_LEN, "%s", name);
	for (int k = 0; k < N * N; k++) {
		w->bw[k] = k % (N + 1) ? 1000 + k : NAN;
		w->lat[k] = k % (N + 1) ? 2 : NAN;
	}
	w->topo = (struct cxd_topo){ .group_name = w->gname,
		.switch_name = w->sname, .ngroup = 2, .nswitch = 2 };
	w->tm = (struct cxd_topo_map){ .switch_of = sof, .group_of = gof,
				       .nswitch = 2, .ngroup = 2 };
	w->sus[0] = (struct cxd_suspect){ .kind = CXD_S_RANK,
		.metric = CXD_M_BW, .id = 3, .bad = 3, .links = 6, .id2 = -1 };
	w->sus[1] = (struct cxd_suspect){ .kind = CXD_S_SWITCH,
		.metric = CXD_M_LAT, .id = 1, .bad = 8, .links = 8,
		.id2 = -1 };
	w->out[0] = (struct cxd_outlier){ .src = 3, .dst = 0,
		.metric = CXD_M_BW, .value = 500, .reference = 1000 };
	w->out[1] = (struct cxd_outlier){ .src = 0, .dst = 2,
		.metric = CXD_M_LAT, .value = 9, .reference = 2 };
	w->rules = (struct cxd_rules){ .n = N };
	w->rules.tol[0].tol = w->rules.tol[1].tol = 0.1;
	w->r = (struct cxd_sweep_res){ .run = { .n = N, .ranks = w->ranks,
		.provider = "tcp", .engine = "fabric", .cfg = &w->cfg },
		.links = { .bw = w->bw, .lat = w->lat, .rank_med = w->med,
			   .spread = { w->bw, w->lat } },
		.judged = { .rules = &w->rules },
		.suspects = { w->sus, 2 },
		.outliers = { .out = w->out, .nout = 2, .nout_all = 2 },
		.in = { .topo = &w->topo, .tmap = &w->tm } };
	w->r.verdict = cxd_verdict_of(&w->r);
}

/* One writer's file, read whole, and gone. */
static char *written(cxd_out_writer_fn *fn, const struct cxd_sweep_res *r)
{
	char path[] = "/tmp/cxd-hostile-XXXXXX", err[256], *text;

	close(mkstemp(path));
	assert_int_equal(fn(r, path, err, sizeof(err)), 0);
	text = read_text(path, 1 << 20);
	unlink(path);
	return text;
}

/* One RFC 4180 record from *p into f (room for 8 fields of 300
 * bytes); its field count. */
static int csv_record(const char **p, char f[8][300])
{
	int n = 0;
	size_t k = 0;
	bool quoted = false;

	for (const char *s = *p; *s; s++) {
		if (quoted && *s == '"' && s[1] == '"')
			f[n][k++] = *s++;
		else if (*s == '"' && (quoted || k == 0))
			quoted = !quoted;
		else if (!quoted && (*s == ',' || *s == '\n')) {
			f[n][k] = '\0';
			n++;
			k = 0;
			if (*s == '\n' || n == 8) {
				*p = s + 1;
				return n;
			}
		} else if (k < 299)
			f[n][k++] = *s;
	}
	*p += strlen(*p);
	return n;
}

static void check_csv(const char *text, const struct world *w)
{
	char f[8][300];
	const char *p = text;
	int rows = 0;

	assert_int_equal(csv_record(&p, f), 8); /* the header */
	while (*p) {
		assert_int_equal(csv_record(&p, f), 8);
		if (atoi(f[0]) == 3) {
			assert_string_equal(f[2], w->ranks[3].host);
			assert_string_equal(f[6], w->ranks[3].nic);
		}
		if (atoi(f[1]) == 3)
			assert_string_equal(f[3], w->ranks[3].host);
		rows++;
	}
	assert_int_equal(rows, N * (N - 1));
}

/* The value of label key in line, unescaped as the exposition format
 * says (\\, \", \n); NULL when the line has none. */
static char *om_label(const char *line, const char *key, char *out,
		      size_t len)
{
	char want[32];
	const char *s;
	size_t o = 0;

	snprintf(want, sizeof(want), "%s=\"", key);
	s = strstr(line, want);
	if (s == NULL)
		return NULL;
	for (s += strlen(want); *s && *s != '"' && o + 1 < len; s++) {
		if (*s == '\\')
			s++;
		out[o++] = *s == 'n' && s[-1] == '\\' ? '\n' : *s;
	}
	assert_int_equal(*s, '"');
	out[o] = '\0';
	return out;
}

static void check_metrics(const char *text, const struct world *w)
{
	char v[600], l[2048];
	int seen = 0;

	for (const char *p = text; *p; p = strchr(p, '\n') + 1) {
		snprintf(l, sizeof(l), "%.*s", (int) (strchr(p, '\n') - p + 1),
			 p);
		if (strncmp(l, "cxi_sweep_rank_suspect{", 23) != 0 ||
		    !strstr(l, "rank=\"3\"}"))
			continue;
		assert_string_equal(om_label(l, "host", v, sizeof(v)),
				    w->ranks[3].host);
		assert_string_equal(om_label(l, "nic", v, sizeof(v)),
				    w->ranks[3].nic);
		assert_non_null(strstr(l, "} 1\n"));
		seen++;
	}
	assert_int_equal(seen, 1);
}

/* HOST<TAB>REASON, each host once: nid2 (by its switch) and the name;
 * no double quote in a reason (scontrol's reason="..."). */
static void check_suspects(const char *text, const char *name)
{
	const char *l = text;
	int lines = 0, named = 0;

	for (; *l; l = strchr(l, '\n') + 1, lines++) {
		const char *tab = strchr(l, '\t'), *end = strchr(l, '\n');

		assert_non_null(tab);
		assert_true(tab < end);
		assert_null(memchr(tab + 1, '\t', (size_t) (end - tab - 1)));
		assert_null(memchr(tab + 1, '"', (size_t) (end - tab - 1)));
		named += (size_t) (tab - l) == strlen(name) &&
			 memcmp(l, name, strlen(name)) == 0;
	}
	assert_int_equal(lines, 2);
	assert_int_equal(named, 1);
}

static const char *str_at(json_object *o, const char *key)
{
	json_object *v = json_object_object_get(o, key);

	assert_non_null(v);
	return json_object_get_string(v);
}

static void check_json(const char *text, const struct world *w)
{
	json_object *d = json_tokener_parse(text), *r3, *s;
	char want[CXD_OUT_NAME_LEN];

	assert_non_null(d);
	r3 = json_object_array_get_idx(json_object_object_get(d, "ranks"), 3);
	assert_string_equal(str_at(r3, "host"), w->ranks[3].host);
	assert_string_equal(str_at(r3, "nic"), w->ranks[3].nic);
	assert_string_equal(str_at(r3, "switch"), w->sname[1]);
	assert_string_equal(str_at(r3, "group"), w->gname[1]);
	s = json_object_object_get(d, "suspects");
	assert_int_equal(json_object_array_length(s), 2);
	snprintf(want, sizeof(want), "switch %s (ranks 2, 3)", w->sname[1]);
	assert_string_equal(str_at(json_object_array_get_idx(s, 1), "name"),
			    want);
	json_object_put(d);
}

static void check_text(const struct world *w)
{
	char *buf = NULL, want[CXD_OUT_NAME_LEN];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	cxd_out_text(&w->r, f);
	fclose(f);
	snprintf(want, sizeof(want), "  %s (rank 3, %s): 3 of 6 links",
		 w->ranks[3].host, w->ranks[3].nic);
	assert_non_null(strstr(buf, want));
	snprintf(want, sizeof(want), "  switch %s (ranks 2, 3): 8 of 8 links",
		 w->sname[1]);
	assert_non_null(strstr(buf, want));
	free(buf);
}

static void test_every_writer(void **state)
{
	size_t n, carried = 0;
	const struct hostile *t = hostile_names(&n);
	struct world *w = calloc(1, sizeof(*w));

	(void) state;
	assert_non_null(t);
	for (size_t i = 0; i < n; i++) {
		char *text;

		if (!t[i].carry)
			continue;
		world(w, t[i].name);
		assert_int_equal(w->r.verdict, CXD_V_FAIL);
		check_text(w);
		text = written(cxd_out_csv, &w->r);
		check_csv(text, w);
		free(text);
		text = written(cxd_out_metrics, &w->r);
		check_metrics(text, w);
		free(text);
		text = written(cxd_out_suspects, &w->r);
		check_suspects(text, t[i].name);
		free(text);
		text = written(cxd_out_json, &w->r);
		check_json(text, w);
		free(text);
		carried++;
	}
	assert_true(carried >= 15);
	free(w);
}

CXD_UNIT_MAIN(cmocka_unit_test(test_every_writer))
