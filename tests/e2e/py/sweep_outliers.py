"""Exactly rank 2's links are bandwidth outliers (test_sweep.sh).

    sweep_outliers.py FILE N SANITIZED
"""
import json, sys
d = json.load(open(sys.argv[1])); n = int(sys.argv[2]); loose = sys.argv[3] == "1"
got = {(o["src"], o["dst"]) for o in d["outliers"] if o["metric"] == "bw_mb_s"}
want = {(a, b) for a in range(n) for b in range(n) if a != b and 2 in (a, b)}
print("flagged %s; rank 2's links %s" % (sorted(got), sorted(want)))
# Sanitizer build: every shaped link must be found; extra dips are noted.
sys.exit(0 if got == want or (loose and want <= got) else 1)
