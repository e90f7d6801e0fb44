#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# ReFrame for tests/e2e/test_reframe.sh (the checks in contrib/reframe/):
# reframe-hpc from PyPI into its own virtual environment, DIR/bin/reframe
# (DIR: $CXD_REFRAME_DIR, default /opt/cxd-reframe). Called by
# scripts/deps.sh. Idempotent. Without pip or the registry it says so and
# exits 0: the test then skips, saying why.
set -euo pipefail
dir=${CXD_REFRAME_DIR:-/opt/cxd-reframe}
VERSION=4.10.4

[ -x "$dir/bin/reframe" ] && exit 0
say() { echo "reframe.sh: $*; the ReFrame test will be skipped" >&2; exit 0; }
command -v python3 >/dev/null 2>&1 || say "no python3"
python3 -m venv "$dir" 2>/dev/null || say "cannot make a virtual environment in $dir (Debian: python3-venv; or set CXD_REFRAME_DIR)"
echo "reframe.sh: installing reframe-hpc==$VERSION into $dir"
"$dir/bin/python3" -m pip install -q "reframe-hpc==$VERSION" ||
	{ rm -rf "$dir"; say "pip could not install reframe-hpc==$VERSION"; }
