#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test-class: timing (pair tools launched by mpirun, measuring on the real fabric)
# One launcher step runs a pair (docs/site.md), under Open MPI's mpirun
# (the Slurm side: test_sweep_slurm.sh):
#   1. mpirun -np 2 TOOL on one node, no option: rank 1 finds rank 0 at
#      127.0.0.1 and the port both derive from the job id; stdout holds
#      the client's table only (no server line), exit 0; --metrics is the
#      client's;
#   2. --rendezvous DIR (a latency tool): the address goes through a file
#      in DIR, removed at the end;
#   3. mpirun -np 3: exit 2, the message names the count;
#   4. --rendezvous outside a launcher: exit 2.
# Skipped (77) without mpirun. About 10 s.
#   bash tests/e2e/test_launch.sh BUILD_DIR
. "$(dirname "$0")/lib.sh" "$@"
mpi_setup
BW=$BUILD/cxi_write_bw
LAT=$BUILD/cxi_send_lat
ARGS=(--provider tcp -d lo -n 20)

section "mpirun -np 2: one step, the client's output"
run_capture np2 60 "${MPIRUN[@]}" -np 2 "$BW" "${ARGS[@]}" -s 1:1024 \
	--metrics "$TMPD/bw.prom"
expect_rc 0 "$RC" "mpirun -np 2 cxi_write_bw"
check "one table of 11 rows (1 B to 1 KiB)" test "$(table_rows "$OUT" | wc -l)" = 11
check "stdout: one summary (the client's)" test "$(grep -c 'CXI RDMA Write Bandwidth Test' "$OUT")" = 1
no_server_line() { ! grep -q "Listening on port" "$OUT"; }
check "the server's line is not on stdout" no_server_line
check "--metrics written by the client (rank 1)" \
	grep -q '^cxd_pair_bandwidth_bytes_per_second{tool="cxi_write_bw",.*size="1024"}' "$TMPD/bw.prom"
[ "$RC" = 0 ] || show "$OUT" "$ERR"

section "--rendezvous DIR"
mkdir -p "$TMPD/rdv"
run_capture rdv 60 "${MPIRUN[@]}" -np 2 "$LAT" "${ARGS[@]}" -s 8 \
	--rendezvous "$TMPD/rdv"
expect_rc 0 "$RC" "mpirun -np 2 cxi_send_lat --rendezvous"
check "a latency row for 8 B" grep -qE '^ +8 +20 ' "$OUT"
check "the rendezvous file is removed at the end" \
	test -z "$(ls -A "$TMPD/rdv")"
[ "$RC" = 0 ] || show "$OUT" "$ERR"

section "bad input"
run_capture np3 60 "${MPIRUN[@]}" -np 3 "$BW" "${ARGS[@]}"
expect_rc 2 "$RC" "mpirun -np 3"
check "the message names the count" \
	grep -q "mpirun started 3 ranks (OMPI_COMM_WORLD_SIZE=3): a pair needs exactly 2" "$ERR"
run_capture alone 10 "$BW" --rendezvous "$TMPD/rdv"
expect_rc 2 "$RC" "--rendezvous outside a launcher"
check "it says why" grep -q "no launcher's rank is in the environment" "$ERR"
finish
