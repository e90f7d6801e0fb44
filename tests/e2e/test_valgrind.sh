#!/usr/bin/env bash
# Valgrind memcheck on one short run of each of the nine tools: no invalid
# access, no use of uninitialised memory, no leak (definite, indirect or
# possible), in the client and in the forked --local server alike. Only
# libfabric's own init-time state is suppressed (tests/valgrind.supp).
# Each --local tool runs once per provider (default: tcp and shm).
#   bash tests/e2e/test_valgrind.sh BUILD_DIR [PROVIDER...]
. "$(dirname "$0")/lib.sh" "$@"
shift
PROVIDERS=("$@")
[ ${#PROVIDERS[@]} -gt 0 ] || PROVIDERS=(tcp shm)
SUPP=$(cd "$(dirname "$0")/.." && pwd)/valgrind.supp

command -v valgrind >/dev/null 2>&1 || skip "valgrind is not installed"
# Sanitizer builds carry their own allocator and shadow memory.
if grep -q '^CXD_SANITIZE:BOOL=ON' "$BUILD/CMakeCache.txt" 2>/dev/null; then
	skip "$BUILD is a sanitizer build: valgrind cannot run ASan binaries"
fi
[ -r "$SUPP" ] || die "suppressions file $SUPP missing"

VG=(valgrind --error-exitcode=99 --leak-check=full
	--show-leak-kinds=definite,indirect,possible
	--errors-for-leak-kinds=definite,indirect,possible
	--suppressions="$SUPP" --num-callers=30 --child-silent-after-fork=no)

# Tiny runs: a few iterations of a small size. Every tool but the
# loopback one is a client and a forked server (--local), both checked.
args_for() {
	local PROV=$2
	case $1 in
	cxi_gpu_loopback_bw) echo "-i 2 -n 4 -s 4096" ;;
	cxi_atomic_*) echo "--local --provider $PROV -n 5" ;;
	*_bw) echo "--local --provider $PROV -n 5 -s 4096 -l 4" ;;
	*_lat) echo "--local --provider $PROV -n 5 -s 64 --warmup 1" ;;
	esac
}

# vg_case TOOL PROV: memcheck one run; both processes log to their own file.
vg_case() {
	local tool=$1 logs errs dir=$TMPD/vg.$1.$2
	local -a args
	read -r -a args <<<"$(args_for "$tool" "$2")"
	if ! [ -x "$BUILD/$tool" ]; then
		fail "$tool: $BUILD/$tool not built"
		return
	fi
	mkdir -p "$dir"
	run_capture "$tool" 120 "${VG[@]}" --log-file="$dir/%p.log" \
		"$BUILD/$tool" "${args[@]}"
	logs=("$dir"/*.log)
	errs=$(grep -h 'ERROR SUMMARY' "${logs[@]}" 2>/dev/null | grep -vc ' 0 errors')
	if [ "$RC" -eq 0 ] && [ "$errs" -eq 0 ] && [ ${#logs[@]} -ge 1 ]; then
		pass "$tool ${args[*]}: memcheck clean (${#logs[@]} process(es))"
		return
	fi
	fail "$tool ${args[*]}: exit $RC, $errs process(es) with errors"
	show "$ERR"
	local f
	for f in "${logs[@]}"; do
		grep -q 'ERROR SUMMARY: 0 errors' "$f" && continue
		echo "       --- $(basename "$f")"
		grep -v -e '^==[0-9]*== *$' -e 'by 0x[0-9A-F]*: ???' "$f" | sed -n '7,60p' | sed 's/^/       | /'
	done
}

for T in cxi_write_bw cxi_read_bw cxi_send_bw cxi_atomic_bw \
	cxi_gpu_loopback_bw cxi_write_lat cxi_read_lat cxi_send_lat \
	cxi_atomic_lat; do
	if [ "$T" = cxi_gpu_loopback_bw ]; then
		vg_case "$T" auto # one process, its own provider choice
		continue
	fi
	for P in "${PROVIDERS[@]}"; do vg_case "$T" "$P"; done
done
finish
