/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep --matrix FILE: each rank writes its own record and rows at
 * their offsets (MPI-IO), so nobody holds the n x n matrices; the layout
 * is in sweep/matrix.h.
 */
#include <stdio.h>

#include "sweep/model/matrix.h"
#include "outputs_matrix.h"

static void mpi_err(int rc, const char *what, const char *path, char *err,
		    size_t len)
{
	char s[MPI_MAX_ERROR_STRING];
	int n = 0;

	MPI_Error_string(rc, s, &n);
	snprintf(err, len, "cannot %s the matrix file '%s': %.*s", what, path,
		 n, s);
}

int sw_matrix_open(struct sw_matrix *x, const struct sw_ctx *c)
{
	const char *path = c->cfg.sweep.matrix;
	char err[CXD_ERR_LEN] = "";
	int rc;

	if (path[0] == '\0')
		return CXD_EXIT_OK;
	rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE |
			   MPI_MODE_WRONLY, MPI_INFO_NULL, &x->fh);
	if (rc == MPI_SUCCESS) {
		x->open = true;
		/* an older file's tail */
		rc = MPI_File_set_size(x->fh, 0);
	}
	if (rc != MPI_SUCCESS)
		mpi_err(rc, "create", path, err, sizeof(err));
	return sw_agree_err(&c->m, err) ? CXD_EXIT_USAGE : CXD_EXIT_OK;
}

int sw_matrix_write(struct sw_matrix *x, const struct sw_ctx *c,
		    const struct sw_measured *f, const double tol[2])
{
	unsigned char head[CXD_MATRIX_HEAD], rec[CXD_MATRIX_REC];
	struct cxd_matrix_head h = { c->m.n, c->cfg.run.min_size, c->repeat,
				     { tol[0], tol[1] }, "" };
	const double *row[2] = { f->bw_row, f->lat_row };
	char err[CXD_ERR_LEN] = "";
	MPI_Request q[4];
	int nq = 0, rc = MPI_SUCCESS;

	if (!x->open)
		return CXD_EXIT_OK;
	snprintf(h.provider, sizeof(h.provider), "%s", c->bw_run.provider);
	cxd_matrix_put_head(&h, head);
	cxd_matrix_put_rank(&c->ranks[c->m.rank], rec);
	if (c->m.rank == 0)
		rc = MPI_File_iwrite_at(x->fh, 0, head, CXD_MATRIX_HEAD,
					MPI_BYTE, &q[nq++]);
	if (rc == MPI_SUCCESS)
		rc = MPI_File_iwrite_at(x->fh, (MPI_Offset)
					cxd_matrix_rank_off(c->m.rank), rec,
					CXD_MATRIX_REC, MPI_BYTE, &q[nq++]);
	for (int m = 0; m < 2 && rc == MPI_SUCCESS; m++)
		rc = MPI_File_iwrite_at(x->fh, (MPI_Offset)
					cxd_matrix_row_off(c->m.n, m,
							   c->m.rank),
					row[m], c->m.n, MPI_DOUBLE, &q[nq++]);
	if (rc != MPI_SUCCESS)
		nq--; /* the failed call made no request */
	if (sw_wait(q, nq, c->m.wait_ns, NULL, NULL) != 0)
		sw_die(&c->m, "writing the matrix file did not finish within "
		       "%llu s",
		       (unsigned long long) (c->m.wait_ns / 1000000000));
	if (rc == MPI_SUCCESS)
		rc = MPI_File_close(&x->fh);
	else
		MPI_File_close(&x->fh);
	x->open = false;
	if (rc != MPI_SUCCESS)
		mpi_err(rc, "write", c->cfg.sweep.matrix, err, sizeof(err));
	return sw_agree_err(&c->m, err) ? CXD_EXIT_FAIL : CXD_EXIT_OK;
}

void sw_matrix_close(struct sw_matrix *x)
{
	if (x->open)
		MPI_File_close(&x->fh);
	x->open = false;
}
