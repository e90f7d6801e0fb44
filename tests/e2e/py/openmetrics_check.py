# SPDX-License-Identifier: BSD-3-Clause
"""A --metrics file read by Prometheus' own parsers (prometheus_client),
OpenMetrics and the classic text format, and its facts checked.

    openmetrics_check.py FILE N VERDICT SUSPECT_RANKS(comma list or -)
"""
import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families as om
from prometheus_client.parser import text_string_to_metric_families as prom

text = open(sys.argv[1]).read()
n, verdict = int(sys.argv[2]), sys.argv[3]
want_sus = set() if sys.argv[4] == "-" else {int(x) for x in sys.argv[4].split(",")}
fams = {f.name: f for f in om(text)}
list(prom(text))  # the textfile collector's format must parse too
bw = [s for s in fams["cxi_sweep_link_bandwidth_bytes_per_second"].samples]
sus = {int(s.labels["rank"]) for s in fams["cxi_sweep_rank_suspect"].samples if s.value == 1}
ver = [s.labels["verdict"] for s in fams["cxi_sweep_verdict"].samples if s.value == 1]
problems = []
if len(bw) != n * (n - 1) or not all(s.value > 0 for s in bw):
    problems.append("%d bandwidth samples, want %d positive" % (len(bw), n * (n - 1)))
# Each rank's median link, the view that stays at any scale.
for fam in ("cxi_sweep_rank_bandwidth_bytes_per_second", "cxi_sweep_rank_latency_seconds"):
    got = sorted(int(s.labels["rank"]) for s in fams[fam].samples if s.value > 0)
    if got != list(range(n)):
        problems.append("%s for ranks %s" % (fam, got))
if sus != want_sus:
    problems.append("suspect ranks %s, want %s" % (sorted(sus), sorted(want_sus)))
if ver != [verdict]:
    problems.append("verdict %s, want %s" % (ver, verdict))
print("%d families, %d link samples, suspects %s, verdict %s"
      % (len(fams), len(bw), sorted(sus), ver))
if problems:
    print("; ".join(problems))
    sys.exit(1)
