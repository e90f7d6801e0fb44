/* SPDX-License-Identifier: BSD-3-Clause */
/* A capacity suspect in every output: its name, the text's lines, the
 * verdict, the JSON, the metrics, and no drain line (out_cap.h). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "support/tmp_text.h"
#include "support/unit_main.h"
#include "sweep/result/out_cap.h"
#include "sweep/result/out_files.h"
#include "sweep/result/out_text.h"
#include "sweep/result/verdict.h"

static char gname[2][CXD_TOPO_NAME] = { "g0", "g1" };
static char sname[2][CXD_TOPO_NAME] = { "g0s0", "g1s0" };
static const struct cxd_sweep_rank ranks[4] = {
	{ "nid0", "a0", "cxi0" }, { "nid1", "a1", "cxi0" },
	{ "nid2", "a2", "cxi0" }, { "nid3", "a3", "cxi0" } };
static const int sof[4] = { 0, 0, 1, 1 }, gof[4] = { 0, 0, 1, 1 };

/* Two groups, one bundle short at 40 % of its stated width's worth,
 * beside a NIC suspect; r's pointers into the statics and st. */
struct world {
	struct cxd_topo topo;
	struct cxd_topo_map tm;
	struct cxd_cap_plan plan;
	struct cxd_cap_unit unit;
	struct cxd_cap_found found;
	struct cxd_cap_res cap;
	struct cxd_suspect sus[2];
	struct cxd_rules rules;
	struct cxd_sweep_res r;
};

static void world(struct world *w)
{
	memset(w, 0, sizeof(*w));
	w->topo.group_name = gname;
	w->topo.switch_name = sname;
	w->topo.ngroup = w->topo.nswitch = 2;
	w->tm = (struct cxd_topo_map){ .switch_of = sof, .group_of = gof,
				       .nswitch = 2, .ngroup = 2 };
	w->unit = (struct cxd_cap_unit){ .scope = CXD_CAP_BUNDLE, .a = 0,
		.b = 1, .np = 2, .carried = 20000, .expected = 50000,
		.ratio = 0.4, .state = CXD_CAP_SHORT };
	w->plan = (struct cxd_cap_plan){ .nunits = 1, .nrounds = 1,
					 .unit = &w->unit };
	w->plan.cls[CXD_CAP_BUNDLE] = (struct cxd_cap_class){
		.present = true, .width = 2, .stated = true, .load = 2,
		.units = 1, .nrounds = 1, .expected = 50000,
		.from_width = true, .bound = 0.75 };
	w->found = (struct cxd_cap_found){ .scope = CXD_CAP_BUNDLE, .a = 0,
		.b = 1, .pairs = 2, .units = 1, .nshort = 1,
		.carried = 20000, .expected = 50000, .ratio = 0.4 };
	w->cap = (struct cxd_cap_res){ .plan = &w->plan, .ran = true,
		.seconds = 1.5, .found = &w->found, .nfound = 1 };
	w->sus[0] = (struct cxd_suspect){ .kind = CXD_S_RANK,
		.metric = CXD_M_BW, .id = 3, .bad = 6, .links = 6, .id2 = -1 };
	w->sus[1] = (struct cxd_suspect){ .kind = CXD_S_CAPACITY,
		.metric = CXD_M_BW, .id = 0, .id2 = 1, .cap = 0 };
	w->rules = (struct cxd_rules){ .n = 4 };
	w->rules.tol[0].tol = 0.1;
	w->rules.tol[1].tol = 1.0;
	w->r = (struct cxd_sweep_res){ .run = { .n = 4, .ranks = ranks },
		.judged = { .rules = &w->rules },
		.suspects = { w->sus, 2 }, .cap = &w->cap,
		.in = { .topo = &w->topo, .tmap = &w->tm },
		.rounds = { .total_s = 10.0 }, .schedule = NULL };
	w->r.verdict = cxd_verdict_of(&w->r);
}

static char *slurp(const char *path)
{
	return read_text(path, 1 << 16);
}

/* The text report of w, in a buffer to free. */
static char *text_of(const struct world *w)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	cxd_out_text(&w->r, f);
	fclose(f);
	return buf;
}

/* The text: the pass's lines, the suspect's line with both figures,
 * a FAIL verdict with no link out, the suspect named in it. */
static void test_text(void **state)
{
	struct world w;
	char name[256], *buf;

	(void) state;
	world(&w);
	assert_int_equal(w.r.verdict, CXD_V_FAIL);
	cxd_out_suspect_name(&w.r, &w.sus[1], name, sizeof(name));
	assert_string_equal(name, "the links between groups g0 and g1");
	buf = text_of(&w);
	assert_non_null(strstr(buf, "Capacity: 1.5 s of the run's 10 s "
				    "(15.0 %)\n"));
	assert_non_null(strstr(buf, "  1 bundle between groups, 2 pairs at "
				    "once on each (width 2, stated), 1 round "
				    "x 2: "));
	assert_non_null(strstr(buf, "  the links between groups g0 and g1: "
				    "20000 MB/s at once (2 pairs) where its "
				    "stated width (2 pairs) carries 50000 MB/s "
				    "(40 %): suspect links down there"));
	assert_non_null(strstr(buf, "Verdict: FAIL: short of capacity, every "
				    "link at full rate alone; suspect: nid3 "
				    "(rank 3, cxi0), the links between groups "
				    "g0 and g1\n"));
	free(buf);
}

/* A unit's expected from the routes' model: its suspect line says so,
 * the scope's line keeps the typical unit's words. */
static void test_model_words(void **state)
{
	struct world w;
	char *buf;

	(void) state;
	world(&w);
	w.plan.cls[CXD_CAP_BUNDLE].from_width = false;
	w.plan.cls[CXD_CAP_BUNDLE].from_model = true;
	buf = text_of(&w);
	assert_non_null(strstr(buf, "20000 MB/s at once (2 pairs) where its "
				    "routes say it carries 50000 MB/s (40 %)"));
	assert_non_null(strstr(buf, "x 2: the typical bundle carries "));
	free(buf);
}

/* An unsure unit alone: INCONCLUSIVE, saying why; none found and none
 * unsure: the capacity leaves the verdict alone. */
static void test_verdicts(void **state)
{
	struct world w;

	(void) state;
	world(&w);
	w.cap.nfound = 0;
	w.cap.nunsure = 1;
	w.r.suspects.n = 1;
	w.sus[0].kind = CXD_S_RANK;
	w.r.suspects.n = 0;
	assert_int_equal(cxd_verdict_of(&w.r), CXD_V_INCONCLUSIVE);
	w.cap.nunsure = 0;
	assert_int_equal(cxd_verdict_of(&w.r), CXD_V_PASS);
	w.cap.ran = false;
	snprintf(w.cap.why, sizeof(w.cap.why), "--no-capacity");
	assert_int_equal(cxd_verdict_of(&w.r), CXD_V_PASS);
}

/* The main pass's CPU waits: half the measurements waiting leaves a
 * PASS; over half, no link standing out is INCONCLUSIVE, said with the
 * counts; a fault found stays FAIL. */
static void test_too_busy(void **state)
{
	struct world w;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void) state;
	world(&w);
	w.cap.nfound = 0;
	w.r.suspects.n = 0;
	w.r.judged.sides = 20;
	w.r.judged.busy_sides = 10;
	assert_int_equal(cxd_verdict_of(&w.r), CXD_V_PASS);
	w.r.judged.busy_sides = 11;
	w.r.verdict = cxd_verdict_of(&w.r);
	assert_int_equal(w.r.verdict, CXD_V_INCONCLUSIVE);
	f = open_memstream(&buf, &len);
	cxd_out_text(&w.r, f);
	fclose(f);
	assert_non_null(strstr(buf, "Verdict: INCONCLUSIVE: no link stands "
				    "out, but in 11 of 20 pair measurements "
				    "a rank waited for a CPU over 20 % of the "
				    "time, with a CPU for each of the "
				    "sweep's ranks at work: other work on the "
				    "host, too busy to vouch for the links' "
				    "rates\n"));
	free(buf);
	w.cap.nfound = 1;
	assert_int_equal(cxd_verdict_of(&w.r), CXD_V_FAIL);
}

/* The files: the drain list has the NIC's host only; the metrics have
 * the unit's aggregate in bytes/s and the suspect; the JSON has its
 * scope, parts and figures. */
static void test_files(void **state)
{
	struct world w;
	char dir[] = "/tmp/cxd-cap-XXXXXX", path[64], err[256], *text;
	json_object *j, *s, *x;

	(void) state;
	world(&w);
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/sus", dir);
	assert_int_equal(cxd_out_suspects(&w.r, path, err, sizeof(err)), 0);
	text = slurp(path);
	assert_non_null(strstr(text, "nid3\t"));
	assert_null(strstr(text, "groups"));
	assert_int_equal(strchr(text, '\n') - text + 1, (long) strlen(text));
	free(text);
	unlink(path);
	snprintf(path, sizeof(path), "%s/m.prom", dir);
	assert_int_equal(cxd_out_metrics(&w.r, path, err, sizeof(err)), 0);
	text = slurp(path);
	assert_non_null(strstr(text, "cxi_sweep_capacity_bytes_per_second{"
				     "scope=\"bundle\",a=\"g0\",b=\"g1\"} "
				     "2e+10\n"));
	assert_non_null(strstr(text, "cxi_sweep_capacity_suspect{scope=\""
				     "bundle\",name=\"the links between "
				     "groups g0 and g1\"} 1\n"));
	free(text);
	unlink(path);
	assert_int_equal(rmdir(dir), 0);
	j = cxd_out_cap_json(&w.r);
	assert_true(json_object_get_boolean(json_object_object_get(j, "ran")));
	x = json_object_array_get_idx(json_object_object_get(j, "units"), 0);
	assert_string_equal(json_object_get_string(
		json_object_object_get(x, "state")), "short");
	json_object_put(j);
	s = json_object_new_object();
	cxd_out_cap_json_suspect(&w.r, &w.sus[1], s);
	assert_string_equal(json_object_get_string(
		json_object_object_get(s, "scope")), "bundle");
	x = json_object_object_get(s, "parts");
	assert_int_equal(json_object_array_length(x), 2);
	assert_string_equal(json_object_get_string(
		json_object_array_get_idx(x, 1)), "g1");
	assert_float_equal(json_object_get_double(
		json_object_object_get(s, "ratio")), 0.4, 1e-12);
	json_object_put(s);
}

CXD_UNIT_MAIN(
	cmocka_unit_test(test_text),
	cmocka_unit_test(test_model_words),
	cmocka_unit_test(test_verdicts),
	cmocka_unit_test(test_too_busy),
	cmocka_unit_test(test_files))
