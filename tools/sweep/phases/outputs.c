/* SPDX-License-Identifier: BSD-3-Clause */
/* cxi_sweep: the outputs kept open across the sweep and the files
 * written from the report (outputs.h). */
#include <stddef.h>
#include <stdio.h>

#include "sweep/result/out_files.h"
#include "health.h"
#include "outputs.h"

int sw_outputs_open(struct sw_outputs *o, const struct sw_ctx *c,
		    struct sw_engine *e)
{
	int ret = sw_matrix_open(&o->matrix, c);

	if (ret == 0) /* link errors around the sweep: evidence */
		o->ctrs = sw_counters_begin(&c->m, e);
	return ret;
}

void sw_outputs_evidence(struct sw_outputs *o, const struct sw_ctx *c)
{
	sw_counters_end(o->ctrs, &c->m);
}

typedef int sw_writer_fn(const struct cxd_sweep_res *r, const char *path,
			 char *err, size_t len);

/* The files rank 0 writes, in this order, each when its option names
 * one (the option's field in struct cxd_sweep_opts). */
static const struct {
	size_t opt;
	sw_writer_fn *write;
} writers[] = {
	{ offsetof(struct cxd_sweep_opts, json), cxd_out_json },
	{ offsetof(struct cxd_sweep_opts, csv), cxd_out_csv },
	{ offsetof(struct cxd_sweep_opts, metrics), cxd_out_metrics },
	{ offsetof(struct cxd_sweep_opts, suspects),
	  cxd_out_suspects },
};

/* Rank 0: each file asked for; the first failure stops the rest. */
static int write_files(const struct sw_ctx *c, const struct cxd_sweep_res *r)
{
	char err[CXD_ERR_LEN] = "";

	for (size_t i = 0; i < sizeof(writers) / sizeof(writers[0]); i++) {
		const char *path = (const char *) &c->cfg.sweep +
				   writers[i].opt;

		if (path[0] && writers[i].write(r, path, err, sizeof(err))) {
			fprintf(stderr, "cxi_sweep: %s\n", err);
			return CXD_EXIT_FAIL;
		}
	}
	return CXD_EXIT_OK;
}

int sw_outputs_write(struct sw_outputs *o, const struct sw_ctx *c,
		     const struct sw_measured *f, const double tol[2],
		     const struct cxd_sweep_res *r)
{
	int ret = sw_matrix_write(&o->matrix, c, f, tol);
	int files = r != NULL ? write_files(c, r) : CXD_EXIT_OK;

	return ret ? ret : files;
}

void sw_outputs_free(struct sw_outputs *o)
{
	sw_matrix_close(&o->matrix);
	sw_counters_free(o->ctrs);
	o->ctrs = NULL;
}
