# SPDX-License-Identifier: BSD-3-Clause
"""Exit 0 if every result row of a --json says validated (test_gpu.sh).

    gpu_validated.py JSON
"""
import json, sys
r = json.load(open(sys.argv[1]))["results"]
sys.exit(0 if r and all(x.get("validated") is True for x in r) else 1)
