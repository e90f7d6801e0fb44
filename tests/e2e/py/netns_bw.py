# SPDX-License-Identifier: BSD-3-Clause
"""bw_mb_s * elapsed_us = size * count, within 0.1 % (test_netns.sh).

    netns_bw.py JSON
"""
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
claimed = r["bw_mb_s"] * r["elapsed_us"]; payload = r["size"] * r["count"]
if abs(claimed - payload) > 0.001 * payload:
    sys.exit(f"bw_mb_s*elapsed_us {claimed:.0f} vs size*count {payload}")
print(f"{r['bw_mb_s']:.1f} MB/s over {r['elapsed_us']:.0f} us")
