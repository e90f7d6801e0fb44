/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Link error counters (lib/counters) against fixture directories laid
 * out as the real files are (Cassini telemetry and retry handler,
 * InfiniBand ports, netdevs, /proc/net): no such NIC is on this host.
 * The paths and formats are those cited in lib/counters/ctr_*.c. Also
 * the --interval windows' worst and median, and --interval's rules.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "counters/counters.h"
#include "cxd/opts.h"
#include "run/windows.h"
#include "support/argv_cfg.h"

static char root[64];

/* Writes root/REL (making its folders) with the text. */
static void put(const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	(void) state;
	snprintf(root, sizeof(root), "/tmp/cxd-ctr.XXXXXX");
	return mkdtemp(root) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void) state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

static struct cxd_ctrs *new_ctrs(void)
{
	struct cxd_ctrs *c = calloc(1, sizeof(*c));

	assert_non_null(c);
	return c;
}

static void test_counters_cxi_deltas_pcie_width_degraded(void **state)
{
	struct cxd_ctrs *c = new_ctrs();
	struct cxd_dev_facts f;
	char line[1024];

	(void) state;
	/* value@seconds.nanoseconds, as the Cassini driver writes them. */
	put("sys/class/cxi/cxi0/device/telemetry/hni_pcs_corrected_cw",
	    "5@1700000000.000000001\n");
	put("sys/class/cxi/cxi0/device/telemetry/hni_pcs_uncorrected_cw",
	    "0@1700000000.000000001\n");
	put("sys/class/cxi/cxi0/device/telemetry/hni_pcs_good_cw",
	    "1000@1700000000.000000001\n");
	put("run/cxi/cxi0/spt_timeouts", "0\n");
	put("run/cxi/cxi0/reset_counters", "");
	put("sys/class/cxi/cxi0/device/aer_dev_correctable",
	    "RxErr 0\nBadTLP 0\nTOTAL_ERR_COR 2\n");
	put("sys/class/cxi/cxi0/device/port/link", "up\n");
	put("sys/class/cxi/cxi0/device/port/speed", "BS_200G\n");
	put("sys/class/cxi/cxi0/device/current_link_width", "8\n");
	put("sys/class/cxi/cxi0/device/max_link_width", "16\n");
	cxd_ctrs_plan(c, "cxi", "cxi0", NULL, root);
	assert_string_equal(c->dev, "cxi0");
	cxd_ctrs_read(c, false);
	put("sys/class/cxi/cxi0/device/telemetry/hni_pcs_corrected_cw",
	    "12@1700000001.000000001\n");
	put("sys/class/cxi/cxi0/device/telemetry/hni_pcs_good_cw",
	    "9000@1700000001.000000001\n");
	put("run/cxi/cxi0/spt_timeouts", "4\n");
	put("sys/class/cxi/cxi0/device/aer_dev_correctable",
	    "RxErr 1\nBadTLP 0\nTOTAL_ERR_COR 3\n");
	cxd_ctrs_read(c, true);
	cxd_ctrs_moved(c, line, sizeof(line));
	assert_non_null(strstr(line, "cxi0 hni_pcs_corrected_cw +7"));
	assert_non_null(strstr(line, "cxi0 rh spt_timeouts +4"));
	assert_non_null(strstr(line, "cxi0 pcie TOTAL_ERR_COR +1"));
	assert_null(strstr(line, "good_cw")); /* good counts are not errors */
	assert_null(strstr(line, "reset"));
	assert_null(strstr(line, "unavailable")); /* no fatal/nonfatal file */
	cxd_dev_facts(c, root, &f);
	assert_string_equal(f.link, "up");
	assert_string_equal(f.speed, "BS_200G");
	assert_false(f.down);
	assert_true(f.degraded);
	assert_string_equal(f.why, "PCIe x8 of x16");
	free(c);
}

static void test_counters_ib_deltas_missing_file_named(void **state)
{
	struct cxd_ctrs *c = new_ctrs();
	struct cxd_dev_facts f;
	char line[1024];

	(void) state;
	put("sys/class/infiniband/mlx5_0/ports/1/counters/symbol_error", "0\n");
	put("sys/class/infiniband/mlx5_0/ports/1/counters/link_downed", "1\n");
	put("sys/class/infiniband/mlx5_0/ports/1/counters/port_rcv_errors",
	    "0\n");
	put("sys/class/infiniband/mlx5_0/ports/1/hw_counters/out_of_buffer",
	    "0\n");
	put("sys/class/infiniband/mlx5_0/ports/1/hw_counters/rx_write_requests",
	    "0\n");
	put("sys/class/infiniband/mlx5_0/ports/1/state", "4: ACTIVE\n");
	put("sys/class/infiniband/mlx5_0/ports/1/rate",
	    "100 Gb/sec (4X EDR)\n");
	put("sys/class/infiniband/mlx5_0/device/net/ens1f0/x", "");
	put("sys/class/net/ens1f0/statistics/rx_errors", "0\n");
	cxd_ctrs_plan(c, "verbs;ofi_rxm", "mlx5_0-xrc", NULL, root);
	assert_string_equal(c->dev, "mlx5_0");
	cxd_ctrs_read(c, false);
	put("sys/class/infiniband/mlx5_0/ports/1/counters/link_downed", "2\n");
	put("sys/class/infiniband/mlx5_0/ports/1/counters/symbol_error", "5\n");
	put("sys/class/infiniband/mlx5_0/ports/1/hw_counters/out_of_buffer",
	    "3\n");
	put("sys/class/infiniband/mlx5_0/ports/1/hw_counters/rx_write_requests",
	    "99\n");
	cxd_ctrs_read(c, true);
	cxd_ctrs_moved(c, line, sizeof(line));
	assert_non_null(strstr(line, "mlx5_0/1 link_downed +1"));
	assert_non_null(strstr(line, "mlx5_0/1 symbol_error +5"));
	assert_non_null(strstr(line, "mlx5_0/1 out_of_buffer +3"));
	assert_null(strstr(line, "rx_write_requests"));
	/* The RoCE netdev's own files: the fixture has one of them only,
	 * the others are named unavailable, never read as 0. */
	assert_non_null(strstr(line, "unavailable: ens1f0 tx_errors"));
	cxd_dev_facts(c, root, &f);
	assert_string_equal(f.link, "4: ACTIVE");
	assert_false(f.down);
	free(c);
}

static void test_counters_tcp_retransmits_and_reset(void **state)
{
	struct cxd_ctrs *c = new_ctrs();
	char line[1024];
	static const char *const stats[] = {
		"rx_errors", "tx_errors", "rx_dropped", "tx_dropped",
		"rx_crc_errors", "rx_frame_errors", "rx_missed_errors",
		"rx_fifo_errors", "rx_over_errors", "tx_carrier_errors",
		"tx_fifo_errors", "tx_aborted_errors",
	};
	char rel[128];

	(void) state;
	for (size_t i = 0; i < sizeof(stats) / sizeof(stats[0]); i++) {
		snprintf(rel, sizeof(rel), "sys/class/net/eth9/statistics/%s",
			 stats[i]);
		put(rel, "0\n");
	}
	put("sys/class/net/eth9/carrier_changes", "2\n");
	put("sys/class/net/eth9/operstate", "down\n");
	put("proc/net/snmp", "Ip: Forwarding DefaultTTL\nIp: 1 64\n"
	    "Tcp: RtoAlgorithm InErrs OutSegs RetransSegs\n"
	    "Tcp: 1 0 1000 100\n");
	put("proc/net/netstat", "TcpExt: TCPTimeouts TCPLostRetransmit\n"
	    "TcpExt: 7 0\n");
	cxd_ctrs_plan(c, "tcp;ofi_rxm", "eth9", NULL, root);
	cxd_ctrs_read(c, false);
	put("proc/net/snmp", "Ip: Forwarding DefaultTTL\nIp: 1 64\n"
	    "Tcp: RtoAlgorithm InErrs OutSegs RetransSegs\n"
	    "Tcp: 1 0 2000 150\n");
	put("proc/net/netstat", "TcpExt: TCPTimeouts TCPLostRetransmit\n"
	    "TcpExt: 9 0\n");
	cxd_ctrs_read(c, true);
	cxd_ctrs_moved(c, line, sizeof(line));
	assert_string_equal(line, "none"); /* the device's own: none moved */
	cxd_ctrs_host(c, line, sizeof(line));
	assert_non_null(strstr(line, "+50 of 1000 segments sent (5.00 %)"));
	assert_non_null(strstr(line, "tcp timeouts +2"));
	cxd_ctrs_moved_only(c, true, line, sizeof(line));
	assert_string_equal(line, "tcp retransmits +50, tcp timeouts +2");
	cxd_ctrs_moved_only(c, false, line, sizeof(line));
	assert_string_equal(line, "");
	/* A counter that went back was reset: no wrapped delta. */
	put("sys/class/net/eth9/carrier_changes", "0\n");
	cxd_ctrs_read(c, true);
	cxd_ctrs_moved(c, line, sizeof(line));
	assert_string_equal(line, "eth9 carrier_changes reset");
	{
		struct cxd_dev_facts f;

		cxd_dev_facts(c, root, &f);
		assert_true(f.down);
		assert_string_equal(f.why, "link down");
	}
	free(c);
}

static void test_shm_and_missing(void **state)
{
	struct cxd_ctrs *c = new_ctrs();
	char line[512];

	(void) state;
	cxd_ctrs_plan(c, "shm", "shm", NULL, root);
	cxd_ctrs_read(c, false);
	cxd_ctrs_read(c, true);
	cxd_ctrs_moved(c, line, sizeof(line));
	assert_string_equal(line, "none (shm: no network device (memory of "
			    "this host))");
	/* A cxi device without its files: said, not a bare "none". */
	cxd_ctrs_plan(c, "cxi", "cxi7", NULL, root);
	cxd_ctrs_read(c, false);
	cxd_ctrs_read(c, true);
	cxd_ctrs_moved(c, line, sizeof(line));
	assert_string_equal(line, "unavailable (cxi: no counters found "
			    "under /sys/class/cxi/cxi7)");
	free(c);
}

/* Older drivers: telemetry only in debugfs. */
static void test_cxi_debugfs(void **state)
{
	struct cxd_ctrs *c = new_ctrs();
	char line[512];

	(void) state;
	put("sys/kernel/debug/cxi/cxi1/telemetry/hni_llr_rx_replay_event",
	    "3@1700000000.000000001\n");
	cxd_ctrs_plan(c, "cxi", "cxi1", NULL, root);
	cxd_ctrs_read(c, false);
	put("sys/kernel/debug/cxi/cxi1/telemetry/hni_llr_rx_replay_event",
	    "9@1700000002.000000001\n");
	cxd_ctrs_read(c, true);
	cxd_ctrs_moved(c, line, sizeof(line));
	assert_string_equal(line, "cxi1 hni_llr_rx_replay_event +6");
	free(c);
}

/* A window recorder of cap rows, windows of step ns. */
static void win_rec(struct cxd_winrec *wr, struct cxd_window *rows, uint64_t cap,
		    uint64_t step)
{
	memset(wr, 0, sizeof(*wr));
	wr->step = step;
	wr->win.cap = cap;
	wr->win.w = rows;
}

/* Five 1 s windows of 1000-byte operations, the third slow; a 0.3 s tail
 * is too short to judge and left out. */
static void test_windows_find_slow_second_drop_short_tail(void **state)
{
	static const uint64_t ops[] = { 1000, 2000, 2100, 3100, 4100 };
	struct cxd_window rows[8];
	struct cxd_winrec wr;
	const uint64_t s = 1000000000ULL;

	(void) state;
	win_rec(&wr, rows, 8, s);
	cxd_win_start(&wr, 1000, 5 * s);
	assert_int_equal(wr.next, 6 * s);
	for (int i = 0; i < 5; i++)
		cxd_win_pass(&wr, (6 + i) * s, ops[i], NULL);
	assert_int_equal(wr.next, 11 * s);
	cxd_win_finish(&wr, 10 * s + s * 3 / 10, 4400, NULL);
	assert_int_equal(wr.win.n, 5);
	assert_int_equal(wr.next, UINT64_MAX);
	assert_true(rows[0].bw_mb_s > 0.999 && rows[0].bw_mb_s < 1.001);
	assert_int_equal(wr.win.worst, 2);
	assert_true(wr.win.worst_v > 0.0999 && wr.win.worst_v < 0.1001);
	assert_true(wr.win.median_v > 0.999 && wr.win.median_v < 1.001);
	assert_true(wr.win.dist_pct > 89.9 && wr.win.dist_pct < 90.1);
	assert_true(rows[2].start_s > 1.999 && rows[2].end_s < 3.001);
}

/* One iteration spanning three boundaries: one window, its true length. */
static void test_window_stretch(void **state)
{
	struct cxd_window rows[4];
	struct cxd_winrec wr;
	const uint64_t s = 1000000000ULL;

	(void) state;
	win_rec(&wr, rows, 4, s);
	cxd_win_start(&wr, 1000000, 0);
	cxd_win_pass(&wr, 3 * s + s / 2, 7, NULL);
	assert_int_equal(wr.next, 4 * s);
	assert_true(rows[0].end_s > 3.49 && rows[0].end_s < 3.51);
	assert_true(rows[0].bw_mb_s > 1.99 && rows[0].bw_mb_s < 2.01);
}

static void expect_bad(const char *want, ...)
{
	struct cxd_cfg cfg;
	char err[CXD_ERR_LEN];
	const char *args[ARGV_CFG_MAX_ARGS + 1];
	va_list ap;
	int n = 0;

	va_start(ap, want);
	while (n < ARGV_CFG_MAX_ARGS && (args[n] = va_arg(ap, const char *)))
		n++;
	va_end(ap);
	args[n] = NULL;
	assert_int_equal(argv_cfg_list(&cfg, err, "cxi_write_bw", args),
			 -EINVAL);
	assert_non_null(strstr(err, "--interval"));
	assert_non_null(strstr(err, want));
}

static void test_interval_rules(void **state)
{
	struct cxd_cfg cfg;

	(void) state;
	argv_cfg_ok(&cfg, "cxi_write_bw", "--local", "-D", "2", "--interval",
		    "1", NULL);
	assert_int_equal(cfg.local.interval_s, 1);
	argv_cfg_ok(&cfg, "cxi_write_lat", "--local", "-D", "3",
		    "--interval", "3", NULL);
	expect_bad("needs a duration", "--local", "--interval", "1", NULL);
	expect_bad("longer than the run", "--local", "-D", "2",
		   "--interval", "3", NULL);
	expect_bad("client option", "-D", "2", "--interval", "1", NULL);
	expect_bad("more than 100000 windows", "--local", "-D", "200000",
		   "--interval", "1", NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counters_cxi_deltas_pcie_width_degraded),
		cmocka_unit_test(test_counters_ib_deltas_missing_file_named),
		cmocka_unit_test(test_counters_tcp_retransmits_and_reset),
		cmocka_unit_test(test_shm_and_missing),
		cmocka_unit_test(test_cxi_debugfs),
		cmocka_unit_test(test_windows_find_slow_second_drop_short_tail),
		cmocka_unit_test(test_window_stretch),
		cmocka_unit_test(test_interval_rules),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
