#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# One pass over a node with an NVIDIA GPU: build libfabric with CUDA, build
# the pair tools against it, run every GPU-capable tool with both buffers on
# GPU 0 over shm (--validate), and write a summary. Needs no network.
#
#   scripts/gpu-device-check.sh --tarball libfabric-X.Y.Z.tar.gz [--debs DIR]
#       [--out DIR] [--work DIR] [--jobs N] [--skip-build] [-- CONFIGURE_ARGS...]
#
#   --tarball FILE  a libfabric release tarball (scripts/build-libfabric.sh builds it)
#   --debs DIR      Debian 12 amd64 .deb files for what the node may lack (json-c,
#                   pkgconf, cmocka): unpacked with dpkg -x into WORK/deps, never
#                   onto /, and found there (pkg-config, CMake, the loader)
#   --out DIR       the summary (summary.txt), fi_info -c FI_HMEM's output
#                   (fi_info-hmem.txt) and the logs (logs.tar.gz); default WORK/out
#   --work DIR      build folder; default build-gpu-check in the checkout
#   --jobs N        parallel build jobs; default: every core
#   --skip-build    run again with WORK's builds (libfabric, tools) as they are
#   -- ARGS         libfabric configure arguments; default a quick build, CUDA
#                   only (a 2.6 built with ROCm or Level Zero, whose device is
#                   absent, fails shm's fi_domain), loading CUDA at run time (no
#                   link against the driver's libraries): --enable-only
#                   --enable-tcp --enable-shm --enable-rxm --without-ze
#                   --without-rocr, and --enable-cuda-dlopen where CUDA is found
#
# CUDA is looked for in $CUDA_HOME (default /usr/local/cuda). Without it the
# script stops before building (exit 3), unless CXD_GPU_CHECK_BUILD_ONLY=1:
# then it builds without CUDA and stops before the GPU runs (exit 0 if built).
# Exit 0: every tool validated; 1: a build step or a run failed; 2: usage.
set -uo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
me=gpu-device-check.sh
tarball= debs= out= work=$here/build-gpu-check jobs=$(nproc) skip_build=0
cfg=(--enable-only --enable-tcp --enable-shm --enable-rxm --without-ze --without-rocr)
cfg_given=0
usage_err() { echo "$me: $1 (see --help)" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	--tarball | --debs | --out | --work | --jobs)
		[ $# -ge 2 ] || usage_err "$1 needs a value"
		v=${1#--}; printf -v "$v" '%s' "$2"; shift 2 ;;
	--skip-build) skip_build=1; shift ;;
	--) shift; cfg=("$@"); cfg_given=1; break ;;
	-h | --help) sed -n '3,28p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) usage_err "unknown argument '$1'" ;;
	esac
done
[ -n "$tarball" ] || usage_err "--tarball FILE is required"
[ -f "$tarball" ] || usage_err "no such tarball: '$tarball'"
[ -z "$debs" ] || [ -d "$debs" ] || usage_err "--debs: no such folder: '$debs'"
case $jobs in '' | *[!0-9]* | 0) usage_err "invalid --jobs '$jobs'" ;; esac
build_only=${CXD_GPU_CHECK_BUILD_ONLY:-0}
case $build_only in 0 | 1) ;; *) usage_err "CXD_GPU_CHECK_BUILD_ONLY must be 0 or 1, not '$build_only'" ;; esac
tarball=$(realpath "$tarball")
mkdir -p "$work" || exit 1
work=$(realpath "$work")
out=${out:-$work/out}
mkdir -p "$out" || exit 1
out=$(realpath "$out")
logs=$work/logs
rm -rf "$logs" && mkdir -p "$logs"
summary=$out/summary.txt
: >"$summary"
say() { echo "$*" | tee -a "$summary"; }
# The logs travel as one tarball, written on every way out.
pack() { tar -czf "$out/logs.tar.gz" -C "$work" logs 2>/dev/null; }
trap pack EXIT
die() { say "FAILED: $1"; exit "${2:-1}"; }

say "== $me $(date -u +%FT%TZ) on $(hostname) ($(uname -m), $(nproc) cores)"
say "commit: $(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo unknown)"
# the carried packages are Debian 12's: they need glibc 2.34 or later
say "system: $(. /etc/os-release 2>/dev/null; echo "${PRETTY_NAME:-unknown}"); $(ldd --version 2>&1 | head -1); $(cmake --version 2>&1 | head -1); $(cc --version 2>&1 | head -1)"

# ---------------------------------------------------------------- CUDA
cuda=${CUDA_HOME:-/usr/local/cuda}
if [ -f "$cuda/include/cuda.h" ]; then
	export CUDA_HOME=$cuda
	say "CUDA: $cuda ($("$cuda/bin/nvcc" --version 2>/dev/null | grep -o 'release [0-9.]*' || echo 'no nvcc'))"
	# libfabric's CUDA code includes NVML's header (the toolkit's -dev part)
	[ -f "$cuda/include/nvml.h" ] || say "warning: no $cuda/include/nvml.h: libfabric's CUDA build needs it"
	[ $cfg_given = 1 ] || cfg+=(--enable-cuda-dlopen)
elif [ "$build_only" = 1 ]; then
	say "CUDA: none at $cuda (CXD_GPU_CHECK_BUILD_ONLY=1: building without it, no GPU runs)"
else
	die "no CUDA found: $cuda/include/cuda.h is missing (set CUDA_HOME to the toolkit)" 3
fi

# ---------------------------------------------------------------- carried packages
# dpkg -x into a private prefix; the .pc files name /usr, so they are
# pointed at the prefix. pkg-config then searches only the prefix's
# folders (and libfabric's, which CMake puts first): the node's own json-c
# is never the one found.
deps=$work/deps
pc=() cm=()
unpack() { # DEB: dpkg -x, or binutils' ar where there is no dpkg
	if command -v dpkg >/dev/null; then dpkg -x "$1" "$deps"
	else ar p "$1" data.tar.xz | tar -xJf - -C "$deps"; fi
}
if [ -n "$debs" ]; then
	[ "$(uname -m)" = x86_64 ] || die "--debs holds amd64 packages; this node is $(uname -m)"
	rm -rf "$deps" && mkdir -p "$deps"
	n=0
	for d in "$debs"/*.deb; do
		[ -f "$d" ] || continue
		unpack "$d" || die "cannot unpack $d"
		n=$((n + 1))
	done
	[ $n -gt 0 ] || die "--debs: no .deb file in '$debs'"
	ma=$deps/usr/lib/x86_64-linux-gnu
	for f in "$ma"/pkgconfig/*.pc "$deps"/usr/share/pkgconfig/*.pc; do
		[ -f "$f" ] && sed -i "s|=/usr\b|=$deps/usr|" "$f"
	done
	export PKG_CONFIG_LIBDIR=$ma/pkgconfig:$deps/usr/share/pkgconfig
	export LD_LIBRARY_PATH=$ma${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	export CMAKE_PREFIX_PATH=$deps/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}
	# its pkgconf when it runs here (libpkgconf from the prefix), else the node's
	if "$deps/usr/bin/pkgconf" --version >/dev/null 2>&1; then
		pc=(-DPKG_CONFIG_EXECUTABLE="$deps/usr/bin/pkgconf")
		export PKG_CONFIG=$deps/usr/bin/pkgconf
	fi
	[ -f "$ma/libcmocka.so" ] && cm=(-DCMOCKA_LIB="$ma/libcmocka.so")
	say "carried packages: $n .deb unpacked in $deps; $(ls "$debs" | grep '\.deb$' | tr '\n' ' ')"
fi
pkgc=${PKG_CONFIG:-$(command -v pkg-config || command -v pkgconf)} ||
	die "no pkg-config: carry Debian's pkgconf, pkgconf-bin and libpkgconf3 in --debs"
say "pkg-config: $pkgc ($("$pkgc" --version 2>&1))"
"$pkgc" --exists json-c || die "json-c not found by $pkgc (carry libjson-c5 and libjson-c-dev in --debs)"
say "json-c: $("$pkgc" --modversion json-c) in $("$pkgc" --variable=libdir json-c)"

# ---------------------------------------------------------------- builds
step() { # NAME CMD...: run, log, time
	local name=$1 t0=$SECONDS rc
	shift
	"$@" >"$logs/$name.log" 2>&1
	rc=$?
	say "$name: exit $rc in $((SECONDS - t0)) s"
	pack
	[ $rc = 0 ] || { tail -25 "$logs/$name.log" | tee -a "$summary"; die "$name (log: logs/$name.log)"; }
}
lf=$work/libfabric b=$work/build
if [ "$skip_build" = 1 ]; then
	[ -x "$lf/bin/fi_info" ] && [ -s "$b/cxd_tools.txt" ] ||
		die "--skip-build: no earlier build in $work (libfabric/bin/fi_info, build/cxd_tools.txt)"
	say "builds: kept from an earlier run in $work (--skip-build)"
else
	step build-libfabric bash "$here/scripts/build-libfabric.sh" --tarball "$tarball" \
		--prefix "$lf" --jobs "$jobs" -- "${cfg[@]}"
	gen=()
	command -v ninja >/dev/null && gen=(-G Ninja)
	rm -rf "$b"
	step cmake-configure cmake -S "$here" -B "$b" "${gen[@]}" -DCXD_LIBFABRIC_PREFIX="$lf" \
		"${pc[@]}" "${cm[@]}"
fi
say "libfabric: $(grep -E '^#define HAVE_(CUDA|ROCR|ZE) ' "$work/src/config.h" | cut -d' ' -f2,3 | tr '\n' ' ')"
# The tools only (tests.cmake writes their list); not the tests.
mapfile -t tools <"$b/cxd_tools.txt"
[ ${#tools[@]} -gt 0 ] || die "$b/cxd_tools.txt is empty"
[ "$skip_build" = 1 ] || step build-tools cmake --build "$b" -j "$jobs" --target "${tools[@]}"
grep -E '^(JSONC|FABRIC)_(PREFIX|LINK_LIBRARIES|VERSION)|^pkgcfg_lib_JSONC|^CMOCKA_LIB' \
	"$b/CMakeCache.txt" | sed 's/^/cache: /' | tee -a "$summary"
say "cxi_write_bw loads: $(ldd "$b/cxi_write_bw" | grep -E 'libjson-c|libfabric' | awk '{print $3}' | tr '\n' ' ')"
if [ "$build_only" = 1 ]; then
	say "RESULT: built (CXD_GPU_CHECK_BUILD_ONLY=1: no GPU runs)"
	exit 0
fi

# ---------------------------------------------------------------- the node
export LD_LIBRARY_PATH=$CUDA_HOME/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
say "== nvidia-smi -L"
(nvidia-smi -L 2>&1 || echo "nvidia-smi failed (exit $?)") | tee -a "$summary"
say "driver: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | head -4 | tr '\n' ';')"
say "libcudart: $(ldconfig -p 2>/dev/null | grep -o '/[^ ]*libcudart\.so[.0-9]*' | tr '\n' ' ') $(ls "$CUDA_HOME"/lib64/libcudart.so* 2>/dev/null | tr '\n' ' ')"
say "== fi_info -c FI_HMEM ($("$lf/bin/fi_info" --version 2>&1 | head -1))"
"$lf/bin/fi_info" -c FI_HMEM >"$out/fi_info-hmem.txt" 2>&1
nvidia-smi >"$logs/nvidia-smi.txt" 2>&1
say "$(grep -E 'provider:' "$out/fi_info-hmem.txt" | sort | uniq -c | tr -s ' ' | tr '\n' ';')"

# ---------------------------------------------------------------- the runs
# The GPU tools are those whose -h lists --tx-gpu (the pair tools also
# --port), as tests/e2e/test_gpu.sh picks them; the sizes are its short ones.
# A tool's -h is read once, into a file: grep -q on a pipe would end the
# tool early (SIGPIPE, a failure under pipefail).
has() { # TOOL --OPT: does TOOL's -h list --OPT?
	[ -s "$logs/help.$1" ] || timeout 10 "$b/$1" -h >"$logs/help.$1" 2>/dev/null
	grep -qE -- "^ +(-[A-Za-z0-9], +)?$2([= ]|\$)" "$logs/help.$1"
}
args_for() {
	if ! has "$1" --size; then echo "-n 5"
	elif has "$1" --warmup; then echo "-n 5 --warmup 2 --latency-gap 0 -s 8:64"
	else echo "-n 3 -l 16 -s 64:1024"; fi
}
# The type comes from the device files; where a container hides them, named.
gtype=()
ls /dev/nvidiactl /dev/nvidia0 >/dev/null 2>&1 ||
	{ gtype=(-g NVIDIA); say "note: no /dev/nvidiactl or /dev/nvidia0: passing -g NVIDIA"; }
total=0 bad=0
# Each run bounded (the short ones take seconds); the logs are packed after
# each, so a command cut short still leaves them.
run_tool() { # NAME SECS TOOL ARGS...: one run, its verdict and summary lines
	local name=$1 secs=$2 t=$3 o=$logs/$1.json e=$logs/$1.err rc v=no lines
	shift 3
	echo "$b/$t $*" >"$logs/$name.cmd"
	timeout -k 5 "$secs" "$b/$t" "$@" >"$o" 2>"$e"
	rc=$?
	[ $rc = 0 ] && python3 "$here/tests/e2e/py/gpu_validated.py" "$o" 2>/dev/null && v=yes
	lines=$(python3 -c 'import json, sys
s = json.load(open(sys.argv[1])).get("summary", {})
print("; ".join(k + (": " + v if v else "") for k, v in s.items()
      if "Mem" in k or "GPU" in k))' "$o" 2>/dev/null)
	total=$((total + 1))
	say "$(printf '%-26s exit %-3s validated %-3s %s' "$name" "$rc" "$v" "$lines")"
	pack
	[ $v = yes ] && return
	bad=$((bad + 1))
	head -5 "$e" | sed 's/^/    stderr: /' | tee -a "$summary"
}
say "== runs: --provider shm -t 0 -r 0 --validate --json ${gtype[*]}"
for t in "${tools[@]}"; do
	has "$t" --tx-gpu || continue
	if has "$t" --port; then
		# shellcheck disable=SC2046
		run_tool "$t" 45 "$t" --local --provider shm -t 0 -r 0 "${gtype[@]}" --validate --json $(args_for "$t")
	else # the loopback tool: one process, no --local
		run_tool "$t-short" 45 "$t" --provider shm -t 0 -r 0 "${gtype[@]}" --validate --json -i 2 -n 64 -s 4096
		run_tool "$t" 120 "$t" --provider shm -t 0 -r 0 "${gtype[@]}" --validate --json
	fi
done
[ $total -gt 0 ] || die "no tool's -h lists --tx-gpu"
if [ $bad = 0 ]; then
	say "RESULT: PASS: $total of $total runs validated on GPU memory (${SECONDS} s)"
	exit 0
fi
say "RESULT: FAIL: $bad of $total runs not validated (${SECONDS} s)"
exit 1
