/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The stand-in GPU: compiled into the test builds only (build/standin/),
 * never into the installed tools. It takes the place of the GPU runtime
 * when CXD_GPU_STANDIN names a device count, serves "device" memory from
 * host memory (registered as host memory unless told otherwise) and
 * counts every call, so tests can run every GPU option end to end here.
 *
 * Environment (read by test builds only):
 *   CXD_GPU_STANDIN=N           N devices (0: the runtime finds none)
 *   CXD_GPU_STANDIN_IFACE=cuda  claim CUDA memory (FI_HMEM_CUDA), to test
 *                               the refusal of providers without FI_HMEM
 *   CXD_GPU_STANDIN_COUNTS=F    append the call counts to F at close
 *   CXD_GPU_STANDIN_DEVROOT=D   probe D/dev/... for the default type
 *   CXD_GPU_STANDIN_CORRUPT=O   flip byte O of a buffer before --validate
 *                               checks it (host or stand-in memory)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cxd/config.h"
#include "gpu/gpu.h"
#include "fabric/mem.h"

enum { C_SELECT, C_ALLOC, C_FREE, C_FILL, C_TO_HOST, C_FROM_HOST, C_N };

static const char *const count_names[C_N] = {
	"select", "alloc", "free", "fill", "to_host", "from_host",
};

struct standin {
	int ndev;
	unsigned long calls[C_N];
	long live; /* allocations not yet freed */
};

static struct standin *sd(const struct cxd_gpu *g)
{
	return g->priv;
}

static int sd_count(const struct cxd_gpu *g, int *n_p)
{
	*n_p = sd(g)->ndev;
	return 0;
}

static int sd_select(const struct cxd_gpu *g, int dev)
{
	sd(g)->calls[C_SELECT]++;
	return dev >= 0 && dev < sd(g)->ndev ? 0 : -ENODEV;
}

static int sd_alloc(const struct cxd_gpu *g, void **p_p, size_t len)
{
	sd(g)->calls[C_ALLOC]++;
	if (posix_memalign(p_p, 4096, len ? len : 1) != 0)
		return -ENOMEM;
	sd(g)->live++;
	return 0;
}

static void sd_free(const struct cxd_gpu *g, void *p)
{
	sd(g)->calls[C_FREE]++;
	sd(g)->live--;
	free(p);
}

static int sd_fill(const struct cxd_gpu *g, void *p, uint8_t v, size_t len)
{
	sd(g)->calls[C_FILL]++;
	memset(p, v, len);
	return 0;
}

static int sd_to_host(const struct cxd_gpu *g, void *dst, const void *src,
		      size_t len)
{
	sd(g)->calls[C_TO_HOST]++;
	memcpy(dst, src, len);
	return 0;
}

static int sd_from_host(const struct cxd_gpu *g, void *dst, const void *src,
			size_t len)
{
	sd(g)->calls[C_FROM_HOST]++;
	memcpy(dst, src, len);
	return 0;
}

/* One line per process: "pid=P alloc=2 free=2 ... live=0". */
static void sd_close(const struct cxd_gpu *g)
{
	const char *path = getenv("CXD_GPU_STANDIN_COUNTS");
	FILE *f = path ? fopen(path, "a") : NULL;

	if (f) {
		fprintf(f, "pid=%d", (int) getpid());
		for (int i = 0; i < C_N; i++)
			fprintf(f, " %s=%lu", count_names[i], sd(g)->calls[i]);
		fprintf(f, " live=%ld\n", sd(g)->live);
		fclose(f);
	}
	free(g->priv);
}

static const struct cxd_gpu_ops standin_ops = {
	.count = sd_count, .select = sd_select, .alloc = sd_alloc,
	.free = sd_free, .fill = sd_fill, .to_host = sd_to_host,
	.from_host = sd_from_host, .close = sd_close,
};

int cxd_gpu_standin_open(struct cxd_gpu *g, char *err, size_t errlen)
{
	const char *n = getenv("CXD_GPU_STANDIN");
	const char *iface = getenv("CXD_GPU_STANDIN_IFACE");
	struct standin *s;

	/* No type resolved: let the real rule refuse, as it would. */
	if (n == NULL || g->type == CXD_GPU_NONE)
		return 0;
	s = calloc(1, sizeof(*s));
	if (s == NULL) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	s->ndev = atoi(n);
	g->priv = s;
	g->ops = &standin_ops;
	g->runtime = "stand-in";
	g->lib_name = "the test build";
	g->iface = iface && strcmp(iface, "cuda") == 0 ? FI_HMEM_CUDA
						       : FI_HMEM_SYSTEM;
	return 1;
}

const char *cxd_gpu_standin_devroot(void)
{
	const char *root = getenv("CXD_GPU_STANDIN_DEVROOT");

	return root ? root : "";
}

void cxd_gpu_standin_corrupt(const struct cxd_buf *b);
void cxd_gpu_standin_corrupt(const struct cxd_buf *b)
{
	const char *o = getenv("CXD_GPU_STANDIN_CORRUPT");
	size_t off = o ? strtoull(o, NULL, 10) : 0;
	uint8_t v;

	if (o == NULL || off >= b->len || cxd_buf_read(b, off, &v, 1) != 0)
		return;
	v ^= 0xFF;
	cxd_buf_write(b, off, &v, 1);
}
