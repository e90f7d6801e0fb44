#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Compile (no tests run) the builds a packager makes, with warnings as
# errors, so a warning one of them shows fails here first:
#   release  CMAKE_BUILD_TYPE=Release (-O3: GCC's deeper checks), from the
#            release tarball (scripts/dist.sh, of the working tree's tracked
#            files) unpacked in an empty directory; then its unit tests
#   debian   Debian's dpkg-buildflags (hardening=+all: _FORTIFY_SOURCE,
#            stack protector, format-security, relro/now) as a package build
#            passes them, build type None
#   clang    clang, RelWithDebInfo
# The fourth, against libfabric 2.x, is `make lf2`'s build. The debian and
# clang trees stay in DIR, so a second run only recompiles what changed.
#   bash scripts/build-variants.sh [DIR [NAME...]]     (`make builds`)
# Environment: CMAKE, JOBS, CMAKE_FLAGS.
set -uo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
DIR=${1:-build-variants}
shift || true
NAMES=("$@")
[ ${#NAMES[@]} -gt 0 ] || NAMES=(release debian clang)
CMAKE=${CMAKE:-cmake}
mkdir -p "$DIR" || exit 1

# variant NAME: configure and build DIR/NAME; its log in DIR/NAME.log.
variant() {
	local name=$1 b=$DIR/$1 t0=$SECONDS src=$SRC
	local -a env=() args=(-DCXD_WERROR=ON)
	case $name in
	release)
		args+=(-DCMAKE_BUILD_TYPE=Release)
		if git -C "$SRC" rev-parse --git-dir >/dev/null 2>&1; then
			src=$(dist_tree) || { echo "builds: $name: make dist FAILED"; return 1; }
			rm -rf "$b"
		fi ;;
	debian)
		command -v dpkg-buildflags >/dev/null 2>&1 ||
			{ echo "builds: $name: skipped: no dpkg-buildflags (dpkg-dev)"; return 0; }
		local -x DEB_BUILD_MAINT_OPTIONS=hardening=+all
		env=(CFLAGS="$(dpkg-buildflags --get CFLAGS) $(dpkg-buildflags --get CPPFLAGS)"
		     LDFLAGS="$(dpkg-buildflags --get LDFLAGS)")
		args+=(-DCMAKE_BUILD_TYPE=None) ;;
	clang)
		command -v clang >/dev/null 2>&1 ||
			{ echo "builds: $name: skipped: clang not installed"; return 0; }
		args+=(-DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo) ;;
	*) echo "builds: unknown build '$name' (release, debian, clang)" >&2; return 2 ;;
	esac
	# shellcheck disable=SC2086
	if env "${env[@]}" "$CMAKE" -S "$src" -B "$b" "${args[@]}" ${CMAKE_FLAGS:-} \
		>"$b.log" 2>&1 &&
		"$CMAKE" --build "$b" -j"${JOBS:-2}" >>"$b.log" 2>&1; then
		if [ "$src" != "$SRC" ]; then
			# the quick tests, in the tree built from the tarball
			if ! ${CTEST:-ctest} --test-dir "$b" -L unit -j"${JOBS:-2}" \
				--output-on-failure >>"$b.log" 2>&1; then
				tail -30 "$b.log"
				echo "builds: $name: unit tests of the tarball's build FAILED (log: $b.log)"
				return 1
			fi
			echo "builds: $name: $(basename "$src").tar.gz unpacked in an empty directory: built, $(grep -Eo '[0-9]+ tests passed|[0-9]+% tests passed[^)]*' "$b.log" | tail -1)"
		fi
		echo "builds: $name: ok ($((SECONDS - t0)) s)"
		return 0
	fi
	grep -E 'error|warning' "$b.log" | head -20
	echo "builds: $name: FAILED (log: $b.log)"
	return 1
}

# dist_tree: the tarball of the tracked files as they are now (a stash
# commit when there are changes: uncommitted edits are checked too),
# unpacked in an empty DIR/dist; prints the tree.
dist_tree() {
	local rev out
	rev=$(git -C "$SRC" stash create 2>/dev/null) || rev=
	rm -rf "$DIR/dist"
	out=$(DIST_REV=${rev:-HEAD} bash "$SRC/scripts/dist.sh" "$DIR/dist" 2>/dev/null | sed -n 1p) &&
		tar -xzf "$out" -C "$DIR/dist" && echo "${out%.tar.gz}"
}

rc=0
for n in "${NAMES[@]}"; do
	variant "$n" || rc=1
done
exit $rc
