#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# After `make check`: what did not run, from ctest's log of the last run
# (BUILD/Testing/Temporary/LastTest.log): whole tests skipped (exit 77)
# and skipped parts ("SKIP (part): ..." of tests/e2e/lib.sh), one a line,
# then their count. Under `make test` (CXD_TEST_STRICT=1) each of them
# has already failed its test.
#   scripts/skips.sh BUILD_DIR
set -euo pipefail
log=${1:?usage: skips.sh BUILD_DIR}/Testing/Temporary/LastTest.log
[ -f "$log" ] || exit 0
awk '
/^[0-9]+\/[0-9]+ Testing: / { t = $3; next }
/^SKIP: / { k = t ": " substr($0, 7); if (!(k in seen)) { seen[k]; print "SKIP (test) " k; n++ } }
/^  SKIP \(part\): / { k = t ": " substr($0, 16); if (!(k in seen)) { seen[k]; print "SKIP (part) " k; n++ } }
END { printf "skips: %d (under make test each fails, but for the exempt ones of docs/testing.md)\n", n }
' "$log"
