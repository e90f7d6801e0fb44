/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The memory interface (lib/gpu/, lib/fabric/mem.c): the default-type
 * rule on fake device trees, loading a runtime and its refusals, the
 * stand-in GPU (linked into this test only), buffers through the runtime's
 * copies, the FI_HMEM check against the real providers, the --validate
 * pattern, the GPU and --validate options, and the GPU fields of the
 * address message.
 */
#include <dlfcn.h>
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

#include "gpu/gpu.h"
#include "fabric/mem.h"
#include "cxd/opts.h"
#include "wire/proto.h"
#include "session/session.h"
#include "run/run.h"
#include "support/argv_cfg.h"

static char root[64];

static void touch(const char *rel, const char *text)
{
	char path[256], dir[320];

	snprintf(path, sizeof(path), "%s%s", root, rel);
	snprintf(dir, sizeof(dir), "mkdir -p \"$(dirname '%s')\"", path);
	assert_int_equal(system(dir), 0);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void fresh_root(void)
{
	char cmd[128];

	if (root[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
		assert_int_equal(system(cmd), 0);
	}
	snprintf(root, sizeof(root), "/tmp/cxd-gpu-unit.XXXXXX");
	assert_non_null(mkdtemp(root));
}

static void test_default_type(void **state)
{
	(void) state;
	fresh_root();
	assert_int_equal(cxd_gpu_default_type(root), CXD_GPU_NONE);
	touch("/sys/class/drm/renderD128/device/vendor", "0x1002\n");
	assert_int_equal(cxd_gpu_default_type(root), CXD_GPU_NONE);
	touch("/sys/class/drm/renderD129/device/vendor", "0x8086\n");
	assert_int_equal(cxd_gpu_default_type(root), CXD_GPU_INTEL);
	touch("/dev/nvidia0", "");
	assert_int_equal(cxd_gpu_default_type(root), CXD_GPU_NVIDIA);
	touch("/dev/kfd", "");
	assert_int_equal(cxd_gpu_default_type(root), CXD_GPU_AMD);
	fresh_root();
	touch("/dev/nvidiactl", "");
	assert_int_equal(cxd_gpu_default_type(root), CXD_GPU_NVIDIA);
	assert_string_equal(cxd_gpu_type_name(CXD_GPU_AMD), "AMD");
	assert_string_equal(cxd_gpu_type_name(CXD_GPU_INTEL), "INTEL");
	assert_string_equal(cxd_gpu_type_name(CXD_GPU_NONE), "none");
}

/* Without the stand-in, the real loaders: absent libraries are refused. */
static void test_no_runtime(void **state)
{
	static const struct { int type; const char *lib; } rt[] = {
		{ CXD_GPU_NVIDIA, "libcudart.so" },
		{ CXD_GPU_AMD, "libamdhip64.so" },
		{ CXD_GPU_INTEL, "libze_loader.so" },
	};
	char err[512];
	struct cxd_gpu *g;

	(void) state;
	unsetenv("CXD_GPU_STANDIN");
	for (size_t i = 0; i < 3; i++) {
		void *h = dlopen(rt[i].lib, RTLD_NOW);

		if (h) { /* a node with the runtime: nothing to refuse */
			dlclose(h);
			continue;
		}
		assert_int_equal(cxd_gpu_open(rt[i].type, &g, err,
					      sizeof(err)), -ENOENT);
		assert_null(g);
		assert_non_null(strstr(err, "unable to find GPU libraries"));
		assert_non_null(strstr(err, rt[i].lib));
		assert_non_null(strstr(err, cxd_gpu_type_name(rt[i].type)));
	}
	assert_int_equal(cxd_gpu_open(CXD_GPU_NONE, &g, err, sizeof(err)),
			 -ENOENT);
	assert_non_null(strstr(err, "no GPU type was given"));
}

static void test_standin_open(void **state)
{
	char err[512];
	struct cxd_gpu *g;

	(void) state;
	setenv("CXD_GPU_STANDIN", "0", 1);
	assert_int_equal(cxd_gpu_open(CXD_GPU_AMD, &g, err, sizeof(err)),
			 -ENODEV);
	assert_non_null(strstr(err, "No GPUs found"));
	setenv("CXD_GPU_STANDIN", "3", 1);
	assert_int_equal(cxd_gpu_open(CXD_GPU_AMD, &g, err, sizeof(err)), 0);
	assert_int_equal(g->ndev, 3);
	assert_int_equal(g->type, CXD_GPU_AMD);
	assert_int_equal(g->iface, FI_HMEM_SYSTEM);
	assert_int_equal(cxd_gpu_check_index(g, 2, "-t", err, sizeof(err)), 0);
	assert_int_equal(cxd_gpu_check_index(g, 3, "-t", err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "GPU must be in the range: 0 to 2."));
	assert_non_null(strstr(err, "got 3"));
	cxd_gpu_close(g);
	unsetenv("CXD_GPU_STANDIN");
}

static void test_gpu_buffer(void **state)
{
	uint8_t in[64], out[64];
	char err[512];
	struct cxd_gpu *g;
	struct cxd_buf b;

	(void) state;
	setenv("CXD_GPU_STANDIN", "2", 1);
	assert_int_equal(cxd_gpu_open(CXD_GPU_NVIDIA, &g, err, sizeof(err)),
			 0);
	assert_int_equal(cxd_buf_alloc_gpu(g, 1, 4096, 0xA5, &b, err,
					   sizeof(err)), 0);
	assert_ptr_equal(b.gpu, g);
	assert_int_equal(b.dev, 1);
	assert_int_equal(cxd_buf_read(&b, 4000, out, 64), 0);
	for (int i = 0; i < 64; i++)
		assert_int_equal(out[i], 0xA5);
	for (int i = 0; i < 64; i++)
		in[i] = (uint8_t) (i * 7);
	assert_int_equal(cxd_buf_write(&b, 100, in, 64), 0);
	assert_int_equal(cxd_buf_read(&b, 100, out, 64), 0);
	assert_memory_equal(in, out, 64);
	assert_int_equal(cxd_buf_write(&b, 4090, in, 64), -ERANGE);
	assert_int_equal(cxd_buf_read(&b, 5000, out, 1), -ERANGE);
	assert_int_equal(cxd_buf_set(&b, 0), 0);
	assert_int_equal(cxd_buf_read(&b, 100, out, 1), 0);
	assert_int_equal(out[0], 0);
	cxd_buf_free(&b);
	assert_null(b.ptr);
	/* An index the stand-in does not have cannot be allocated on. */
	assert_int_not_equal(cxd_buf_alloc_gpu(g, 5, 64, 0, &b, err,
					       sizeof(err)), 0);
	assert_non_null(strstr(err, "GPU 5"));
	cxd_gpu_close(g);
	unsetenv("CXD_GPU_STANDIN");
}

/* Debian's tcp has no FI_HMEM: device memory there must be refused. */
static void test_fabric_check(void **state)
{
	char err[512];
	struct cxd_gpu *g;

	(void) state;
	assert_int_equal(cxd_gpu_fabric_check(cxd_gpu_host(), "tcp", FI_RMA,
					      err, sizeof(err)), 0);
	setenv("CXD_GPU_STANDIN", "1", 1);
	setenv("CXD_GPU_STANDIN_IFACE", "cuda", 1);
	assert_int_equal(cxd_gpu_open(CXD_GPU_NVIDIA, &g, err, sizeof(err)),
			 0);
	assert_int_equal(g->iface, FI_HMEM_CUDA);
	if (cxd_gpu_fabric_check(g, "tcp", FI_RMA, err, sizeof(err)) != 0) {
		assert_non_null(strstr(err, "provider 'tcp'"));
		assert_non_null(strstr(err, "NVIDIA"));
		assert_non_null(strstr(err, "--with-cuda"));
		assert_non_null(strstr(err, "FI_HMEM"));
	}
	assert_int_equal(cxd_gpu_fabric_check(g, "no-such-provider", FI_RMA,
					      err, sizeof(err)), -EOPNOTSUPP);
	cxd_gpu_close(g);
	unsetenv("CXD_GPU_STANDIN_IFACE");
	unsetenv("CXD_GPU_STANDIN");
}

/* The pattern must expose lost, shifted or foreign bytes. */
static void test_gpu_pattern_exposes_lost_shifted_bytes(void **state)
{
	int seen[256] = { 0 }, distinct = 0, same_shift = 0, same_size = 0;

	(void) state;
	for (uint64_t j = 0; j < 4096; j++) {
		uint8_t v = cxd_validate_byte(65536, j);

		distinct += seen[v]++ == 0;
		same_shift += v == cxd_validate_byte(65536, j + 64);
		same_size += v == cxd_validate_byte(32768, j);
	}
	assert_true(distinct > 200);
	assert_true(same_shift < 100); /* about 1 in 256 by chance */
	assert_true(same_size < 100);
}

static void test_gpu_validate_all_tools_t_gpu_tools_only(void **state)
{
	const struct cxd_tool *t;
	char err[CXD_ERR_LEN];
	struct cxd_cfg cfg;

	(void) state;
	for (unsigned i = 0; (t = cxd_tool_at(i)) != NULL; i++) {
		argv_cfg_ok(&cfg, t->name, "--validate", NULL);
		assert_true(cxd_run_has(&cfg.run, CXD_RUN_VALIDATE));
		assert_int_equal(cxd_run_validate(t, &cfg.run, err,
						  sizeof(err)), 0);
		/* -t on exactly the tools with GPU memory. */
		assert_int_equal(argv_cfg(&cfg, err, t->name, "-t", "1",
					  NULL) == 0,
				 cxd_tool_has(t, CXD_F_GPU));
	}
	argv_cfg_ok(&cfg, "cxi_write_bw", "-r", "2", "-gamd", NULL);
	assert_int_equal(cfg.local.rx_gpu, 2);
	assert_int_equal(cfg.local.tx_gpu, -1);
	assert_int_equal(cfg.local.gpu_type, CXD_GPU_AMD);
	assert_int_equal(argv_cfg(&cfg, err, "cxi_write_bw", "-g", "TPU", NULL),
			 -EINVAL);
	assert_non_null(strstr(err, "TPU"));
	assert_int_equal(argv_cfg(&cfg, err, "cxi_read_bw", "-t", "-1", NULL),
			 -EINVAL);
	assert_non_null(strstr(err, "Invalid src gpu device"));
	cfg.run.flags = CXD_RUN_VALIDATE << 1;
	assert_int_equal(cxd_run_validate(cxd_tool_find("cxi_write_bw"),
					  &cfg.run, err, sizeof(err)), -EINVAL);
}

static void test_addr_gpu_fields(void **state)
{
	struct cxd_addr_msg m, d;
	uint8_t buf[1024];
	ssize_t n;

	(void) state;
	memset(&m, 0, sizeof(m));
	m.tx_gpu = 3;
	m.rx_gpu = -1;
	m.gpu_type = CXD_GPU_INTEL;
	m.gpu_count = 8;
	n = cxd_enc_addr(&m, buf, sizeof(buf));
	assert_true(n > 0);
	assert_int_equal(cxd_dec_addr(buf, (size_t) n, &d), 0);
	assert_int_equal(d.tx_gpu, 3);
	assert_int_equal(d.rx_gpu, -1);
	assert_int_equal(d.gpu_type, CXD_GPU_INTEL);
	assert_int_equal(d.gpu_count, 8);
	m.gpu_type = 7; /* no such type */
	n = cxd_enc_addr(&m, buf, sizeof(buf));
	assert_int_equal(cxd_dec_addr(buf, (size_t) n, &d), -EPROTO);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_type),
		cmocka_unit_test(test_no_runtime),
		cmocka_unit_test(test_standin_open),
		cmocka_unit_test(test_gpu_buffer),
		cmocka_unit_test(test_fabric_check),
		cmocka_unit_test(test_gpu_pattern_exposes_lost_shifted_bytes),
		cmocka_unit_test(test_gpu_validate_all_tools_t_gpu_tools_only),
		cmocka_unit_test(test_addr_gpu_fields),
	};
	int ret = cmocka_run_group_tests(tests, NULL, NULL);

	if (root[0]) {
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
		if (system(cmd) != 0)
			ret = 1;
	}
	return ret;
}
