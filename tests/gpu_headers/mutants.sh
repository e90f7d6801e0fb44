#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The header checks must be able to fail: each mutant is our header with
# one declaration made wrong the way a slip would (a field moved, a value
# off by one, the wrong type); the check must then fail to compile on a
# static assertion (not on anything else).
#   mutants.sh CC CHECK_SOURCE HEADER [COMPILER FLAGS...]
set -u
cc=$1 src=$2 hdr=$3
shift 3
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/gpu"
case $(basename "$hdr") in
gpu_rt.h) mutants=(
	's/cxd_rt_err (\*count)(int \*n);/int (*count)(int *n);/'
	's/CXD_RT_MEMCPY_D2H 2u/CXD_RT_MEMCPY_D2H 3u/'
	's/X(malloc, Malloc) \\/X(free, Free) X(malloc, Malloc) \\/; s/^\tX(free, Free) X(memset/\tX(memset/'
	's/cxd_rt_err (\*memset)(void \*p, int v, size_t len);/cxd_rt_err (*memset)(void *p, unsigned char v, size_t len);/'
	);;
gpu_ze.h) mutants=(
	's/uint32_t ordinal, index, flags, mode, priority;/uint32_t ordinal, index, mode, flags, priority;/'
	's/CXD_ZE_STYPE_DEVICE_MEM_DESC 0x15u/CXD_ZE_STYPE_DEVICE_MEM_DESC 0x16u/'
	's/\tuint32_t flags, ordinal;/\tuint64_t flags; uint32_t ordinal;/'
	's/size_t pat_len, size_t len/uint32_t pat_len, size_t len/'
	's/X(0x78000001, ERROR_UNINITIALIZED)/X(0x78000002, ERROR_UNINITIALIZED)/'
	);;
*) echo "no mutants for $hdr"; exit 1;;
esac
bad=0
for m in "${mutants[@]}"; do
	sed "$m" "$hdr" >"$tmp/gpu/$(basename "$hdr")"
	if cmp -s "$hdr" "$tmp/gpu/$(basename "$hdr")"; then
		echo "FAIL: the mutant did not change the header: $m"; bad=1; continue
	fi
	if "$cc" -I"$tmp" "$@" -c "$src" -o "$tmp/out.o" 2>"$tmp/err"; then
		echo "FAIL: compiled with a wrong declaration: $m"; bad=1
	elif grep -q 'static assert' "$tmp/err"; then
		echo "ok   - refused: $m"
	else
		echo "FAIL: refused, but not by a check: $m"; head -5 "$tmp/err"; bad=1
	fi
done
[ $bad = 0 ] && echo "all ${#mutants[@]} mutants refused"
exit $bad
