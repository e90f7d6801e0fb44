#!/usr/bin/env bash
# The licence line, SPDX-License-Identifier: BSD-3-Clause, at the top of
# every source file (after a #! line), in the file's own comment syntax.
#   bash scripts/spdx.sh           add it where it is missing (idempotent)
#   bash scripts/spdx.sh --check   list the files without it; exit 1 if any
#                                  (the unit test unit.spdx)
# Source files: the tracked ones (git ls-files; in a release tarball, every
# file) named below. Not: docs (*.md), data (JSON, fuzz seeds, bench
# results), LICENSE.
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
ID="SPDX-License-Identifier: BSD-3-Clause"

# A checkout's own files; not those of a repository the tree lies in
# (a tarball unpacked in build-variants/ of a checkout).
files() {
	if [ "$(git -C "$SRC" rev-parse --show-toplevel 2>/dev/null)" = "$SRC" ]; then
		git -C "$SRC" ls-files
	else
		(cd "$SRC" && find . -type f ! -path './build*' | sed 's|^\./||')
	fi
}

# comment FILE: the licence line as FILE's comment; nothing if not source.
comment() {
	case $1 in
	*.c | *.h) echo "/* $ID */" ;;
	*.py | *.sh | *.cmake | */CMakeLists.txt | CMakeLists.txt | Makefile | \
		*.toml | *.eb | *.supp | .ci/* | contrib/topology/*-to-cxd | \
		contrib/slurm/cxd-*) echo "# $ID" ;;
	man/*.in | man/*.roff) echo ".\\\" $ID" ;;
	esac
}

has() { head -n 3 "$1" | grep -qF "$ID"; }

check=0
[ "${1:-}" = --check ] && check=1
missing=0 added=0 n=0
while IFS= read -r f; do
	c=$(comment "$f")
	[ -n "$c" ] && [ -f "$SRC/$f" ] || continue
	n=$((n + 1))
	has "$SRC/$f" && continue
	if [ $check = 1 ]; then
		echo "no '$ID' in the first lines of $f"
		missing=$((missing + 1))
		continue
	fi
	# after a #! line, else first
	if head -n 1 "$SRC/$f" | grep -q '^#!'; then
		{ head -n 1 "$SRC/$f"; echo "$c"; tail -n +2 "$SRC/$f"; } >"$SRC/$f.spdx"
	else
		{ echo "$c"; cat "$SRC/$f"; } >"$SRC/$f.spdx"
	fi
	chmod --reference="$SRC/$f" "$SRC/$f.spdx"
	mv "$SRC/$f.spdx" "$SRC/$f"
	added=$((added + 1))
done < <(files)
if [ $check = 1 ]; then
	[ $n -gt 0 ] || { echo "spdx: no source files found under $SRC"; exit 1; }
	[ $missing = 0 ] && echo "spdx: all $n source files carry '$ID'" && exit 0
	echo "spdx: $missing of $n source files lack it (bash scripts/spdx.sh adds it)"
	exit 1
fi
echo "spdx: added to $added of $n source files"
