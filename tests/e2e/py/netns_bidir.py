# SPDX-License-Identifier: BSD-3-Clause
"""A bidirectional run between namespaces (test_netns.sh).

    netns_bidir.py CLIENT_JSON SERVER_JSON

Counts 25600 each, the same summed BW on both sides, own + peer's rate.
"""
import json, sys
c = json.load(open(sys.argv[1]))["results"][0]
s = json.load(open(sys.argv[2]))["results"][0]
if c["count"] != 25600 or s["count"] != 25600:
    sys.exit(f"counts client {c['count']} server {s['count']}, want 25600 each")
if abs(c["bw_mb_s"] - s["bw_mb_s"]) > 0.001 * c["bw_mb_s"]:
    sys.exit(f"summed BW differs: client {c['bw_mb_s']} server {s['bw_mb_s']}")
own = c["size"] * c["count"] / c["elapsed_us"]; peer = s["size"] * s["count"] / s["elapsed_us"]
if abs(c["bw_mb_s"] - (own + peer)) > 0.01 * c["bw_mb_s"]:
    sys.exit(f"bw_mb_s {c['bw_mb_s']:.1f} != own {own:.1f} + peer {peer:.1f}")
print(f"counts 25600/25600, both report {c['bw_mb_s']:.1f} MB/s = {own:.1f} + {peer:.1f}")
