/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cxi_sweep --matrix FILE: each rank writes its own record and rows at
 * their offsets (MPI-IO), so nobody holds the n x n matrices; the layout
 * is in sweep/matrix.h.
 */
#include <stdio.h>

#include "sweep/matrix.h"
#include "sweep_mpi.h"

static void mpi_err(int rc, const char *what, const char *path, char *err,
		    size_t len)
{
	char s[MPI_MAX_ERROR_STRING];
	int n = 0;

	MPI_Error_string(rc, s, &n);
	snprintf(err, len, "cannot %s the matrix file '%s': %.*s", what, path,
		 n, s);
}

int sw_matrix_open(struct sw *w)
{
	const char *path = w->cfg.sweep.matrix;
	char err[CXD_ERR_LEN] = "";
	int rc;

	if (path[0] == '\0')
		return CXD_EXIT_OK;
	rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE |
			   MPI_MODE_WRONLY, MPI_INFO_NULL, &w->out.mfh);
	if (rc == MPI_SUCCESS) {
		w->out.has_matrix = true;
		/* an older file's tail */
		rc = MPI_File_set_size(w->out.mfh, 0);
	}
	if (rc != MPI_SUCCESS)
		mpi_err(rc, "create", path, err, sizeof(err));
	return sw_agree_err(w, err) ? CXD_EXIT_USAGE : CXD_EXIT_OK;
}

int sw_matrix_write(struct sw *w, const double tol[2])
{
	unsigned char head[CXD_MATRIX_HEAD], rec[CXD_MATRIX_REC];
	struct cxd_matrix_head h = { w->m.n, w->cfg.run.min_size, w->repeat,
				     { tol[0], tol[1] }, "" };
	const double *row[2] = { w->judge.bw_row, w->judge.lat_row };
	char err[CXD_ERR_LEN] = "";
	MPI_Request q[4];
	int nq = 0, rc = MPI_SUCCESS;

	if (!w->out.has_matrix)
		return CXD_EXIT_OK;
	snprintf(h.provider, sizeof(h.provider), "%s", w->bw_run.provider);
	cxd_matrix_put_head(&h, head);
	cxd_matrix_put_rank(&w->ranks[w->m.rank], rec);
	if (w->m.rank == 0)
		rc = MPI_File_iwrite_at(w->out.mfh, 0, head, CXD_MATRIX_HEAD,
					MPI_BYTE, &q[nq++]);
	if (rc == MPI_SUCCESS)
		rc = MPI_File_iwrite_at(w->out.mfh, (MPI_Offset)
					cxd_matrix_rank_off(w->m.rank), rec,
					CXD_MATRIX_REC, MPI_BYTE, &q[nq++]);
	for (int m = 0; m < 2 && rc == MPI_SUCCESS; m++)
		rc = MPI_File_iwrite_at(w->out.mfh, (MPI_Offset)
					cxd_matrix_row_off(w->m.n, m,
							   w->m.rank),
					row[m], w->m.n, MPI_DOUBLE, &q[nq++]);
	if (rc != MPI_SUCCESS)
		nq--; /* the failed call made no request */
	if (sw_wait(q, nq, w->m.wait_ns, NULL, NULL) != 0)
		sw_die(&w->m, "writing the matrix file did not finish within "
		       "%llu s",
		       (unsigned long long) (w->m.wait_ns / 1000000000));
	if (rc == MPI_SUCCESS)
		rc = MPI_File_close(&w->out.mfh);
	else
		MPI_File_close(&w->out.mfh);
	w->out.has_matrix = false;
	if (rc != MPI_SUCCESS)
		mpi_err(rc, "write", w->cfg.sweep.matrix, err, sizeof(err));
	return sw_agree_err(w, err) ? CXD_EXIT_FAIL : CXD_EXIT_OK;
}
