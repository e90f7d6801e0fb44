#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Print the path of the libfabric 2.x release tarball for `make lf2`:
#   scripts/fetch-libfabric.sh CACHE_DIR
# the first libfabric-2.*.tar.gz in ../shared/vendor beside the checkout
# (or beside the local repository it was cloned from), else the pinned
# release (VERSION below) from GitHub into CACHE_DIR (in
# the build tree, git-ignored; downloaded once), checked against its pinned
# sha256. Never copy the tarball into the repository. Exit 1, the reason on
# stderr, when neither can be had.
set -euo pipefail

VERSION=2.6.0
# sha256 of libfabric-2.6.0.tar.gz, the release asset (also the copy in
# ../shared/vendor, whose README says it is the release as published).
SHA256=d5938cbd9b81b055b7be67fb88ebf5475a7da1948dcb217a821850fa53228d30
URL=https://github.com/ofiwg/libfabric/releases/download/v$VERSION/libfabric-$VERSION.tar.gz

here=$(cd "$(dirname "$0")/.." && pwd)
cache=${1:?usage: fetch-libfabric.sh CACHE_DIR}
# Beside the checkout, or beside the local repository it was cloned from
# (a clone made elsewhere, e.g. under mktemp -d, of a checkout that has
# ../shared/vendor beside it).
origin=$(git -C "$here" config --get remote.origin.url 2>/dev/null || true)
[ -d "$origin" ] || origin=$here
for f in "$here"/../shared/vendor/libfabric-2.*.tar.gz \
	 "$origin"/../shared/vendor/libfabric-2.*.tar.gz; do
	[ -f "$f" ] && { realpath "$f"; exit 0; }
done
want=$cache/libfabric-$VERSION.tar.gz
ok() { [ -f "$1" ] && [ "$(sha256sum "$1" | cut -d' ' -f1)" = "$SHA256" ]; }
if ! ok "$want"; then
	mkdir -p "$cache"
	echo "fetch-libfabric.sh: downloading $URL" >&2
	curl -fsSL --retry 3 -o "$want.part" "$URL" ||
		{ echo "fetch-libfabric.sh: cannot download $URL" >&2; rm -f "$want.part"; exit 1; }
	ok "$want.part" || {
		echo "fetch-libfabric.sh: $URL: sha256 $(sha256sum "$want.part" | cut -d' ' -f1), want $SHA256" >&2
		rm -f "$want.part"
		exit 1
	}
	mv "$want.part" "$want"
fi
realpath "$want"
