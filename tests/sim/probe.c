/* SPDX-License-Identifier: BSD-3-Clause */
/* Test aid, built with smpicc: measures pairs of ranks one at a time, alone
 * on the simulated fabric. Bandwidth: COUNT sends of SIZE bytes, then a
 * zero-byte acknowledgement; latency: half the round trip of 8-byte
 * ping-pongs. Rank A of each pair prints
 *     pair A B HOST_A HOST_B BW_BYTES_PER_S LAT_S
 * With -a, all the pairs run at once (each rank in one pair at most): the
 * sum of their figures is what the links they share carry together.
 *     probe [-a] [-s SIZE] [-n COUNT] [-i ITERS] A B [A B ...]  (-a first) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct probe_opts {
	long size, count, iters;
	int together;
	int npairs;
	int *pairs;
};

static int parse_long(const char *s, long *out)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (*s == '\0' || *end != '\0' || v < 1)
		return -1;
	*out = v;
	return 0;
}

/* Pairs run together must not share a rank. */
static int check_apart(const struct probe_opts *o)
{
	for (int k = 0; k < 2 * o->npairs; k++)
		for (int m = k + 1; m < 2 * o->npairs; m++)
			if (o->pairs[k] == o->pairs[m]) {
				fprintf(stderr, "probe: -a: rank %d in two pairs\n", o->pairs[k]);
				return -1;
			}
	return 0;
}

static int parse(int argc, char **argv, int nranks, struct probe_opts *o)
{
	int i = 1;
	o->size = 1 << 20;
	o->count = 64;
	o->iters = 100;
	o->together = 0;
	while (i < argc && !strcmp(argv[i], "-a")) {
		o->together = 1;
		i++;
	}
	for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
		long *dst = !strcmp(argv[i], "-s") ? &o->size :
			    !strcmp(argv[i], "-n") ? &o->count :
			    !strcmp(argv[i], "-i") ? &o->iters : NULL;
		if (!dst || parse_long(argv[i + 1], dst)) {
			fprintf(stderr, "probe: bad option %s %s\n", argv[i], argv[i + 1]);
			return -1;
		}
	}
	if ((argc - i) < 2 || (argc - i) % 2) {
		fprintf(stderr, "probe: give pairs of ranks\n");
		return -1;
	}
	o->npairs = (argc - i) / 2;
	o->pairs = malloc(sizeof(int) * 2 * (size_t)o->npairs);
	for (int k = 0; o->pairs && k < 2 * o->npairs; k++) {
		char *end;
		const char *s = argv[i + k];
		long r = strtol(s, &end, 10);
		if (*s == '\0' || *end != '\0' || r < 0 || r >= nranks) {
			fprintf(stderr, "probe: bad rank '%s' (0 to %d)\n", s, nranks - 1);
			return -1;
		}
		o->pairs[k] = (int)r;
	}
	if (!o->pairs)
		return -1;
	return o->together ? check_apart(o) : 0;
}

/* One pair, both sides: returns the figures on rank a. */
static void measure(const struct probe_opts *o, char *buf, int a, int b, int me,
		    double *bw, double *lat)
{
	MPI_Request *req = malloc(sizeof(*req) * o->count);
	int peer = me == a ? b : a;
	double t0 = MPI_Wtime();
	for (long k = 0; k < o->count; k++) {
		if (me == a)
			MPI_Isend(buf, (int)o->size, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &req[k]);
		else
			MPI_Irecv(buf, (int)o->size, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &req[k]);
	}
	MPI_Waitall((int)o->count, req, MPI_STATUSES_IGNORE);
	if (me == a)
		MPI_Recv(NULL, 0, MPI_BYTE, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	else
		MPI_Send(NULL, 0, MPI_BYTE, peer, 2, MPI_COMM_WORLD);
	*bw = (double)o->size * (double)o->count / (MPI_Wtime() - t0);
	t0 = MPI_Wtime();
	for (long k = 0; k < o->iters; k++) {
		if (me == a) {
			MPI_Send(buf, 8, MPI_BYTE, peer, 3, MPI_COMM_WORLD);
			MPI_Recv(buf, 8, MPI_BYTE, peer, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		} else {
			MPI_Recv(buf, 8, MPI_BYTE, peer, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			MPI_Send(buf, 8, MPI_BYTE, peer, 3, MPI_COMM_WORLD);
		}
	}
	*lat = (MPI_Wtime() - t0) / (2.0 * (double)o->iters);
	free(req);
}

int main(int argc, char **argv)
{
	int me, n, len, rc = 0;
	char host[MPI_MAX_PROCESSOR_NAME];
	struct probe_opts o;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &me);
	MPI_Comm_size(MPI_COMM_WORLD, &n);
	MPI_Get_processor_name(host, &len);
	if (parse(argc, argv, n, &o)) {
		MPI_Finalize();
		return 2;
	}
	char *buf = calloc(1, (size_t)o.size);
	char (*hosts)[MPI_MAX_PROCESSOR_NAME] = malloc(sizeof(*hosts) * (size_t)n);
	MPI_Allgather(host, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, hosts,
		      MPI_MAX_PROCESSOR_NAME, MPI_CHAR, MPI_COMM_WORLD);
	for (int p = 0; p < o.npairs; p++) {
		int a = o.pairs[2 * p], b = o.pairs[2 * p + 1];
		double bw, lat;
		if (!o.together || p == 0)
			MPI_Barrier(MPI_COMM_WORLD);
		if (a == b) {
			rc = 2;
			continue;
		}
		if (me != a && me != b)
			continue;
		measure(&o, buf, a, b, me, &bw, &lat);
		if (me == a) {
			printf("pair %d %d %s %s %.6e %.6e\n", a, b, hosts[a], hosts[b], bw, lat);
			fflush(stdout);
		}
	}
	free(buf);
	free(hosts);
	free(o.pairs);
	MPI_Finalize();
	return rc;
}
