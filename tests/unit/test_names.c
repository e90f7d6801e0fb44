/* SPDX-License-Identifier: BSD-3-Clause */
/* Names from outside (issue 51): the rule every input applies
 * (base/names.h) on the table of hostile names, how a message shows
 * them, and the --topology and --baseline readers refusing the names no
 * output can carry, naming them, and carrying the others whole. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/names.h"
#include "cxd/config.h"
#include "sweep/model/baseline.h"
#include "sweep/model/matrix.h"
#include "sweep/model/topo.h"
#include "sweep/model/topo_add.h"
#include "support/hostile.h"
#include "support/matrix_file.h"
#include "support/tmp_text.h"
#include "support/unit_main.h"

static const struct hostile *table(size_t *n)
{
	const struct hostile *t = hostile_names(n);

	assert_non_null(t);
	assert_true(*n >= 30);
	return t;
}

/* Nothing a terminal or a log would act on: no control byte. */
static void printable(const char *s)
{
	for (; *s; s++)
		if ((unsigned char) *s < 0x20 || *s == 0x7f)
			fail_msg("a control byte 0x%02x in '%s'", *s, s);
}

/* The table's fate for a host, switch or group name (255 bytes), and
 * for a NIC's (63); a reason for every refusal. */
static void test_rule(void **state)
{
	char why[96];
	size_t n;
	const struct hostile *t = table(&n);

	(void) state;
	for (size_t i = 0; i < n; i++) {
		int host = cxd_name_check(t[i].name, CXD_NAME_MAX, why,
					  sizeof(why));
		int nic = cxd_name_check(t[i].name, CXD_NAME_LEN - 1, why,
					 sizeof(why));

		if ((host == 0) != t[i].carry)
			fail_msg("%s: rule says %d, the table %s", t[i].id,
				 host, t[i].carry ? "carry" : "refuse");
		assert_int_equal(nic == 0, t[i].carry && t[i].len < 64);
		if (host)
			assert_true(strlen(why) > 4);
	}
	assert_int_equal(cxd_name_check("a\xe2\x80\xaf" "b", 9, why,
					sizeof(why)), 0); /* U+202F: a space */
}

/* Shown: no control byte, bounded, a carried short name as it is (its
 * backslashes doubled); a small buffer is never overrun. */
static void test_show(void **state)
{
	char show[CXD_NAME_SHOW_LEN], tiny[9];
	size_t n;
	const struct hostile *t = table(&n);

	(void) state;
	for (size_t i = 0; i < n; i++) {
		memset(tiny, 'Z', sizeof(tiny));
		cxd_name_show(t[i].name, show, sizeof(show));
		cxd_name_show(t[i].name, tiny, sizeof(tiny) - 1);
		printable(show);
		assert_true(strlen(show) < sizeof(show) - 1);
		assert_int_equal(tiny[sizeof(tiny) - 1], 'Z');
		if (t[i].carry && t[i].len < 48 && !strchr(t[i].name, '\\'))
			assert_string_equal(show, t[i].name);
	}
	cxd_name_show("a\\b\x1b[0m\xff", show, sizeof(show));
	assert_string_equal(show, "a\\\\b\\x1b[0m\\xff");
	cxd_name_show(hostile_row("long4k")->name, show, sizeof(show));
	assert_non_null(strstr(show, "... (4096 bytes)"));
	/* a message quoting a file: its controls and stray bytes escaped,
	 * the rest (an escaped name's backslashes too) as it is */
	snprintf(show, sizeof(show), "f:1: 'a\\x07' n\xc5\x93ud 'K\x1b[2J\xff'");
	cxd_name_sanitize(show, sizeof(show));
	assert_string_equal(show, "f:1: 'a\\x07' n\xc5\x93ud 'K\\x1b[2J\\xff'");
	cxd_name_sanitize(tiny, 6);
	assert_true(strlen(tiny) < 6);
}

/* Can the plain format hold it as one field? (Whitespace splits
 * fields, '#' starts a comment.) */
static bool one_field(const struct hostile *h)
{
	return h->len && !strpbrk(h->name, " \t\r\n\v\f") &&
	       h->name[0] != '#';
}

/* The name as host, switch and group of a plain --topology file: the
 * names carried whole, the others refused naming the file, the line
 * and the name, shown. */
static void test_topo(void **state)
{
	static const char *const fmt[3] = { "%s s0 g0\n", "h0 %s g0\n",
					    "h0 s0 %s\n" };
	static char text[16384];
	char err[512];
	size_t n;
	const struct hostile *t = table(&n);

	(void) state;
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < 3 && one_field(&t[i]); k++) {
			struct cxd_topo topo;
			char *p;
			int ret;

			snprintf(text, sizeof(text), fmt[k], t[i].name);
			p = write_tmp(text);
			err[0] = '\0';
			ret = cxd_topo_load(p, &topo, err, sizeof(err));
			if ((ret == 0) != t[i].carry)
				fail_msg("%s as field %d: %d '%s'", t[i].id,
					 k, ret, err);
			if (ret == 0) {
				assert_string_equal(k == 0 ? topo.l[0].name :
						    k == 1 ? topo.switch_name[0] :
						    topo.group_name[0],
						    t[i].name);
				cxd_topo_free(&topo);
			} else {
				assert_non_null(strstr(err, p));
				assert_non_null(strstr(err, ":1:"));
				printable(err);
			}
			unlink(p);
		}
}

/* Slurm's topology.conf: a switch and a node named by the table. */
static void test_topo_slurm(void **state)
{
	static char text[16384];
	struct cxd_topo topo;
	const struct hostile *sw = hostile_row("script_end");
	const struct hostile *bad = hostile_row("bel");
	char err[512], *p;

	(void) state;
	snprintf(text, sizeof(text), "SwitchName=%s Nodes=n1\n", sw->name);
	p = write_tmp(text);
	assert_int_equal(cxd_topo_load(p, &topo, err, sizeof(err)), 0);
	assert_string_equal(topo.switch_name[0], sw->name);
	cxd_topo_free(&topo);
	unlink(p);
	snprintf(text, sizeof(text), "SwitchName=s1 Nodes=n1,%s\n", bad->name);
	p = write_tmp(text);
	assert_int_equal(cxd_topo_load(p, &topo, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "the host name 'a\\x07b'"));
	printable(err);
	unlink(p);
}

/* A host list of 2^18 names loads (in linear time: fuzz_topo found one
 * that took hours), one more is refused; a name placed twice is still
 * found, by the index, naming its first line; switches interned once. */
static void test_topo_scale(void **state)
{
	struct cxd_topo topo;
	char err[512], *p;

	(void) state;
	p = write_tmp("SwitchName=s1 Nodes=n[000000-262143]\n");
	assert_int_equal(cxd_topo_load(p, &topo, err, sizeof(err)), 0);
	unlink(p);
	assert_int_equal(topo.nl, 1 << 18);
	assert_string_equal(topo.l[262143].name, "n262143");
	assert_int_equal(topo.nswitch, 1);
	cxd_topo_free(&topo);
	p = write_tmp("SwitchName=s1 Nodes=n[000000-262144]\n");
	assert_int_equal(cxd_topo_load(p, &topo, err, sizeof(err)), -EINVAL);
	unlink(p);
	assert_non_null(strstr(err, "over 262144 hosts placed"));
	p = write_tmp("a s1\nb s2 g1\nc s1 g1\nd s2\nb s3\n");
	assert_int_equal(cxd_topo_load(p, &topo, err, sizeof(err)), -EINVAL);
	unlink(p);
	assert_non_null(strstr(err, ":5: 'b' is placed twice (first at line "
				    "2)"));
	p = write_tmp("a s1\nb s2 g1\nc s1 g1\nd s2\n");
	assert_int_equal(cxd_topo_load(p, &topo, err, sizeof(err)), 0);
	unlink(p);
	assert_int_equal(topo.nswitch, 2);
	assert_int_equal(topo.ngroup, 1);
	assert_int_equal(topo.l[3].switch_ix, 1);
	assert_int_equal(topo.l[2].group_ix, 0);
	cxd_topo_free(&topo);
}

/* name as a JSON string: control bytes and NUL as \u escapes, the
 * quote and backslash escaped, every other byte as it is. */
static size_t json_str(char *out, size_t room, const char *name,
		       size_t len)
{
	size_t o = 0;

	out[o++] = '"';
	for (size_t i = 0; i < len && o + 8 < room; i++) {
		unsigned char c = (unsigned char) name[i];

		if (c < 0x20)
			o += (size_t) snprintf(out + o, room - o, "\\u%04x", c);
		else if (c == '"' || c == '\\')
			o += (size_t) snprintf(out + o, room - o, "\\%c", c);
		else
			out[o++] = (char) c;
	}
	out[o++] = '"';
	out[o] = '\0';
	return o;
}

/* A baseline whose rank 0 has the name as its host, address or NIC. */
static int baseline_with(const char *key, const char *name, size_t len,
			 struct cxd_baseline *b, char *err, size_t errlen)
{
	static char doc[32768], str[16384];
	char *p;
	int ret;

	json_str(str, sizeof(str), name, len);
	snprintf(doc, sizeof(doc), "{\"tool\": \"cxi_sweep\", \"provider\": "
		 "\"tcp\", \"ranks\": [{\"host\": \"h0\", \"%s\": %s}, "
		 "{\"host\": \"h1\"}], \"bw_mb_s\": [[null, 1], [1, null]], "
		 "\"lat_us\": [[null, 1], [1, null]]}", key, str);
	p = write_tmp(doc);
	ret = cxd_baseline_load(p, b, err, errlen);
	unlink(p);
	return ret;
}

static void test_baseline(void **state)
{
	static const char *const keys[3] = { "host", "address", "nic" };
	static const size_t room[3] = { 255, 159, CXD_NAME_LEN - 1 };
	struct cxd_baseline b;
	char err[512];
	size_t n;
	const struct hostile *t = table(&n);

	(void) state;
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < 3; k++) {
			bool carry = t[i].carry && t[i].len <= room[k];
			int ret = baseline_with(keys[k], t[i].name, t[i].len,
						&b, err, sizeof(err));

			if ((ret == 0) != carry)
				fail_msg("%s as %s: %d '%s'", t[i].id, keys[k],
					 ret, err);
			if (ret == 0) {
				assert_string_equal(k == 0 ? b.ranks[0].host :
						    k == 1 ? b.ranks[0].addr :
						    b.ranks[0].nic, t[i].name);
				cxd_baseline_free(&b);
				continue;
			}
			assert_non_null(strstr(err, "rank 0's"));
			assert_non_null(strstr(err, keys[k]));
			printable(err);
		}
	/* a NUL inside a JSON string: refused, not cut there */
	assert_int_equal(baseline_with("host", "a\0b", 3, &b, err,
				       sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "U+0000"));
}

/* A --matrix file: a record's hostile host refused; a head claiming
 * 2^20 ranks in a short file refused before its matrices are made. */
static void test_baseline_matrix(void **state)
{
	struct cxd_matrix_head h = { .n = 2, .size = 8, .provider = "tcp" };
	struct cxd_sweep_rank r[2] = { { "h0", "a0", "cxi0" },
				       { "h1", "a1", "cxi0" } };
	double zero[8] = { 0 };
	char path[] = "/tmp/cxd-mat-XXXXXX", err[512];
	struct cxd_baseline b;
	FILE *f;

	(void) state;
	snprintf(r[1].host, sizeof(r[1].host), "%s", "a\x1b]0;x\x07");
	close(mkstemp(path));
	f = matrix_open(path, &h, r, 2);
	fwrite(zero, sizeof(double), 8, f);
	fclose(f);
	assert_int_equal(cxd_baseline_load(path, &b, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "rank 1's host 'a\\x1b]0;x\\x07'"));
	h.n = 1 << 20;
	fclose(matrix_open(path, &h, r, 0));
	assert_int_equal(cxd_baseline_load(path, &b, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "cut short"));
	unlink(path);
}

CXD_UNIT_MAIN(
	cmocka_unit_test(test_rule),
	cmocka_unit_test(test_show),
	cmocka_unit_test(test_topo),
	cmocka_unit_test(test_topo_slurm),
	cmocka_unit_test(test_topo_scale),
	cmocka_unit_test(test_baseline),
	cmocka_unit_test(test_baseline_matrix))
