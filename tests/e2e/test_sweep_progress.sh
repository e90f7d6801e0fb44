#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test-class: timing (sweeps under mpirun)
# cxi_sweep's progress line, drawn by rank 0 on stderr for a run over 2 s:
#   1. mpirun on a terminal (given by `script`): the line shows the phase
#      and the rounds, is rewritten with \r, and is erased before the
#      report, whose lines read cleanly;
#   2. none with --json, none when mpirun's stderr is a file (a batch
#      log), none with --no-progress;
#   3. --progress: through mpirun's pipe into a file all the same.
# Five sweeps of 2 ranks run at once; each pair's bandwidth is timed with
# -D 1, so a sweep lasts over 2 s on any machine (about 10 s in all).
#   bash tests/e2e/test_sweep_progress.sh BUILD_DIR
. "$(dirname "$0")/lib.sh" "$@"
. "$(dirname "$0")/sweep_lib.sh"
# BIN, MPIRUN.
sweep_setup
command -v script >/dev/null || skip "no script(1) (util-linux) to give mpirun a terminal"
SWEEP="${MPIRUN[*]} -np 2 $BIN --provider shm -D 1 --repeat 2 --lat-iters 20"
LINE='cxi_sweep: main pass \(phase 1 of [0-9]+\), round 1 of 1'

# in_pty NAME CMD: CMD (a shell string) on a pseudo-terminal, in the
# background; what the terminal showed lands in $TMPD/NAME.tty.
declare -A PID ERRF
in_pty() {
	start_bg "$1" script -qfec "$2" "$TMPD/$1.tty"
	PID[$1]=$BG_PID
}

# final_segments FILE: each line as the terminal leaves it (after the last \r).
final_segments() { sed 's/\r*$//' "$1" | awk -F'\r' '{ print $NF }'; }

# no_line NAME FILE...: no progress text in any of the files.
no_line() {
	local name=$1; shift
	if grep -qaE '\(phase [0-9]+ of' "$@"; then
		fail "$name: a progress line was drawn"; show "$@"
	else
		pass "$name: no progress line"
	fi
}

# A sweep's exit: 0, 3 (outliers) or 4 (too noisy) on shared cores.
ended() {
	wait_pid "${PID[$1]}" 60
	case $WAIT_RC in
	0 | 3 | 4) pass "$1: exit $WAIT_RC" ;;
	*) fail "$1: exit $WAIT_RC"; show "$TMPD/$1.tty" "${ERRF[$1]:-/dev/null}" ;;
	esac
}

t0=$(now)
in_pty tty "$SWEEP"
in_pty json "$SWEEP --json $TMPD/json.json"
in_pty errfile "$SWEEP 2>$TMPD/errfile.err"
in_pty off "$SWEEP --no-progress"
start_bg forced "${MPIRUN[@]}" -np 2 "$BIN" --provider shm -D 1 --repeat 2 \
	--lat-iters 20 --progress
PID[forced]=$BG_PID ERRF[forced]=$BG_ERR
for n in tty json errfile off forced; do
	ended "$n"
done
note "five sweeps in $(elapsed_since "$t0") s"

section "mpirun on a terminal: the line, rewritten, then erased"
T=$TMPD/tty.tty
if grep -qaE $'\r'"$LINE, about [0-9.]+ s left" "$T"; then
	pass "progress line '$(grep -aoE "$LINE[^"$'\r'"]*" "$T" | head -1)'"
else
	fail "no progress line"; show "$T"
fi
if final_segments "$T" | grep -qE '\(phase [0-9]+ of'; then
	fail "a progress line was left on screen"; show "$T"
else
	pass "every progress line was erased"
fi
# mpirun forwards stdout and stderr apart: the report itself blanks the
# line first, so either order leaves it clean (sw_progress_part).
# Two blankings then: the erase on stderr and the report's on stdout.
check "the report opens by blanking the line on stdout too" \
	test "$(grep -aoE $'\r {20,}\r' "$T" | wc -l)" -ge 2
check "the report's first line reads cleanly" \
	has_line <(final_segments "$T") '^cxi_sweep: 2 ranks, '
check "the verdict reads cleanly" has_line <(final_segments "$T") '^Verdict: '

section "no line: --json, stderr to a file, --no-progress"
no_line "--json" "$TMPD/json.tty"
check "--json: the JSON written" test -s "$TMPD/json.json"
no_line "stderr to a file" "$TMPD/errfile.tty" "$TMPD/errfile.err"
check "stderr to a file: the report on the terminal" \
	has_line <(final_segments "$TMPD/errfile.tty") '^Verdict: '
no_line "--no-progress" "$TMPD/off.tty"

section "--progress: through mpirun's pipe into a file"
if grep -qaE $'\r'"$LINE" "${ERRF[forced]}"; then
	pass "--progress: the line in mpirun's stderr file"
else
	fail "--progress: no line in the file"; show "${ERRF[forced]}"
fi
if final_segments "${ERRF[forced]}" | grep -qE '\(phase [0-9]+ of'; then
	fail "--progress: the line was not erased"
else
	pass "--progress: the line erased"
fi

finish
