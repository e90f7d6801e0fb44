#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test-class: timing (NHC's gates judge real figures; Slurm drains on them)
# contrib/nhc/cxd.nhc under the real NHC driver (LBNL NHC, the vendor
# tarball unpacked into the test's temp dir; skipped without it):
#   healthy node     -> check_cxi_health, check_cxi_write_bw and
#                       check_cxi_loopback_bw with bounds this host meets:
#                       NHC exits 0, says nothing
#   failing gate     -> an impossible bound: NHC fails naming the check and
#                       the gate's reason (size, figure, bound)
#   missing NIC      -> check_cxi_health -d of a NIC that is not there
#   NHC_RM=slurm     -> (root, the test Slurm of slurm_lib.sh) the failing
#                       gate drains the node with that reason (sinfo -R);
#                       a passing run resumes it (NHC's node-mark-online)
# About 25 s with Slurm.
#   bash tests/e2e/test_nhc.sh BUILD_DIR
. "$(dirname "$0")/lib.sh" "$@"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
for t in cxi_node_health cxi_write_bw cxi_gpu_loopback_bw; do
	[ -x "$BUILD/$t" ] || skip "$BUILD/$t not built"
done
TARBALL=$(ls "$SRC"/../shared/vendor/lbnl-nhc-*.tar.gz /work/shared/vendor/lbnl-nhc-*.tar.gz 2>/dev/null | head -1)
[ -n "$TARBALL" ] || skip "no lbnl-nhc-*.tar.gz in ../shared/vendor or /work/shared/vendor"
tar xzf "$TARBALL" -C "$TMPD" || die "cannot unpack $TARBALL"
NHC_DIR=$(ls -d "$TMPD"/lbnl-nhc-*/ | head -1)
[ -f "$NHC_DIR/nhc" ] || die "no nhc driver in $TARBALL"
# "make install" would set the helpers' mode; the tarball leaves it off.
chmod +x "$NHC_DIR/nhc" "$NHC_DIR"/helpers/*
CONF=$TMPD/nhcconf
mkdir -p "$CONF/scripts"
cp "$NHC_DIR/scripts/common.nhc" "$SRC/contrib/nhc/cxd.nhc" "$CONF/scripts/"

# nhc NAME CONF_LINES [VAR=VALUE...]: the driver on a config of those lines.
nhc() {
	local name=$1 lines=$2
	shift 2
	printf '%s\n' "$lines" >"$CONF/$name.conf"
	run_capture "nhc-$name" 60 bash "$NHC_DIR/nhc" -D "$CONF" \
		-c "$CONF/$name.conf" -l - -t 30 HELPERDIR="$NHC_DIR/helpers" \
		CXD_BIN_DIR="$BUILD" "$@"
}
OFF=(NHC_RM=none MARK_OFFLINE=0)
HEALTHY="* || check_cxi_health -d lo -i 1
* || check_cxi_write_bw -p tcp -s 4096 -n 20 0.001
* || check_cxi_loopback_bw -p shm -s 4096 -i 2 0.001"
FAILING="* || check_cxi_health -d lo -i 1
* || check_cxi_write_bw -p tcp -s 4096 -n 20 1000000000"

section "a healthy node"
nhc healthy "$HEALTHY" "${OFF[@]}"
expect_rc 0 "$RC" "NHC, bounds this host meets" || show "$OUT" "$ERR"
grep -q ERROR "$OUT" "$ERR" && fail "an ERROR line: $(grep -h ERROR "$OUT" "$ERR")" || pass "no ERROR line"

section "a failing gate"
nhc failing "$FAILING" "${OFF[@]}"
[ "$RC" -ne 0 ] && pass "NHC exit $RC (non-zero)" || fail "NHC exit 0 on an impossible bound"
expect_line "$OUT" 'ERROR: +nhc: +Health check failed: +check_cxi_write_bw: cxi_write_bw: FAIL 4096 B: [0-9.]+ MB/s, below the bound of 1000000000 MB/s$' \
	"NHC names the check and the gate's reason"
grep -h 'Health check failed' "$OUT" | head -1 | sed 's/^/       /'

section "a NIC that is not there"
nhc missing "* || check_cxi_health -d lo,cxd_no_nic -i 1" "${OFF[@]}"
[ "$RC" -ne 0 ] && pass "NHC exit $RC (non-zero)" || fail "NHC exit 0 with a NIC missing"
expect_line "$OUT" 'Health check failed: +check_cxi_health: cxi_node_health: NIC cxd_no_nic is missing' "the missing NIC named"

section "NHC_RM=slurm: drain with the reason, then resume"
. "$(dirname "$0")/slurm_lib.sh"
slurm_start 2
NODE=$(hostname -s)
nhc drain "$FAILING" NHC_RM=slurm MARK_OFFLINE=1 HOSTNAME="$NODE"
[ "$RC" -ne 0 ] && pass "NHC exit $RC (non-zero)" || fail "NHC exit 0 on an impossible bound"
# scontrol update is immediate; sinfo may lag a moment.
slurm_wait 10 eval '[ -n "$(sinfo -R -h -n "$NODE")" ]'
REASON=$(sinfo -R -h -n "$NODE" -o '%E')
note "sinfo -R -o '%E %u %N': $(sinfo -R -h -n "$NODE" -o '%E %u %N')"
if echo "$REASON" | grep -qE '^NHC: check_cxi_write_bw: cxi_write_bw: FAIL 4096 B: [0-9.]+ MB/s, below the bound of 1000000000 MB/s$'; then
	pass "drained, reason: $REASON"
else
	fail "sinfo -R reason '$REASON'"; show "$OUT" "$ERR"
fi
check "node state drained" eval '[[ "$(sinfo -h -n "$NODE" -o %t)" == drain* ]]'
nhc resume "$HEALTHY" NHC_RM=slurm MARK_OFFLINE=1 HOSTNAME="$NODE"
expect_rc 0 "$RC" "NHC, healthy again" || show "$OUT" "$ERR"
slurm_wait 10 eval '[ -z "$(sinfo -R -h -n "$NODE")" ]'
[ -z "$(sinfo -R -h -n "$NODE")" ] && pass "resumed: no reason left" || fail "still: $(sinfo -R -h -n "$NODE")"
check "node state idle" eval '[[ "$(sinfo -h -n "$NODE" -o %t)" == idle* ]]'
slurm_stop
finish
