# SPDX-License-Identifier: BSD-3-Clause
"""The payload a client claims against the kernel's count (test_netns.sh).

    netns_payload.py JSON TX_BYTES

Wants 0.8 * TX_BYTES <= size * count <= TX_BYTES.
"""
import json, sys
d = json.load(open(sys.argv[1])); tx = int(sys.argv[2])
r = d["results"][0]
payload = r["size"] * r["count"]
msg = f"payload {payload} B (size {r['size']} x count {r['count']}), tx_bytes {tx} B, ratio {payload / tx:.3f}"
if not (0.8 * tx <= payload <= tx):
    sys.exit("want 0.8*tx <= payload <= tx: " + msg)
print(msg)
