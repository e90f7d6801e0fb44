# SPDX-License-Identifier: BSD-3-Clause
"""cxi_archive's reader of a saved cxi_node_health output. That tool writes
no JSON: its table and its "Health:" lines are what scripts read
(man/cxi_node_health.1, lib/node_health.c). Imported by cxi_archive_db."""

import datetime
import hashlib
import os
import re

from cxi_archive_doc import show

HEADER = re.compile(r"^NIC +Kind +Link +Speed +PCIe +Flaps +Verdict$")
# A row: name and kind are one word each; an InfiniBand link state is
# "4: ACTIVE" and its speed "100 Gb/sec (4X EDR)", so the middle is told
# apart by the PCIe field ("-" or "x16 16.0 GT/s PCIe") and the flaps.
ROW = re.compile(
    r"^(?P<nic>\S+) +(?P<kind>\S+) +(?P<link>\d+: \S+|\S+) +(?P<speed>.+?) +"
    r"(?P<pcie>-|x\S* .+?) +(?P<flaps>-|\d+) +"
    r"(?P<verdict>ok|unused|DOWN|DEGRADED|FLAPPING|ERRORING|MISSING)"
    r"(?: \((?P<why>.*?)\))?(?: \(in \d+ s: (?P<moved>.*?)\))?"
    r"(?: \[unavailable: (?P<unread>.*)\])?$")
NAMED = re.compile(r"^Health: NIC (\S+) is (missing|down|degraded|flapping"
                   r"|erroring): (.*)$")
PASS = re.compile(r"^Health: PASS: (\d+) NICs? up, PCIe at its maximum, no "
                  r"link flap and no error counter moved in (\d+) s$")
FAIL = re.compile(r"^Health: FAIL: (\d+) of (\d+) NICs?$")
NONE = re.compile(r"^Health: no NIC found: .+$")
BAD = ("DOWN", "DEGRADED", "FLAPPING", "ERRORING", "MISSING")


def looks_like(text):
    """True when text is cxi_node_health's output (or the start of it)."""
    lines = text.splitlines()
    return bool(lines) and (bool(HEADER.match(lines[0].rstrip())) or any(
        ln.startswith("Health: ") for ln in lines))


def _row(name, k, line):
    m = ROW.match(line)
    if m is None:
        raise ValueError("%s: line %d is not a row of cxi_node_health's "
                         "table: '%s'" % (name, k, show(line, 80)))
    r = m.groupdict()
    r["flaps"] = None if r["flaps"] == "-" else int(r["flaps"])
    r["why"] = "; ".join(x for x in (r["why"], r["moved"]) if x) or None
    del r["moved"]
    return r


def _verdict(name, last, nics, named):
    """PASS or FAIL from the last line, checked against the table (a line
    lost in between, or an edited one, would make it disagree)."""
    bad = [x for x in nics if x["verdict"] in BAD]
    m = PASS.match(last)
    if m:
        used = sum(x["verdict"] != "unused" for x in nics)
        if bad or named or int(m.group(1)) != used:
            raise ValueError("%s: the PASS line says %s NICs up; the table "
                             "has %d in use, %d not healthy (cut or edited)"
                             % (name, m.group(1), used, len(bad)))
        return "PASS", int(m.group(2))
    m = FAIL.match(last)
    if m:
        if (int(m.group(1)), int(m.group(2))) != (len(bad), len(nics)) or \
                len(named) != len(bad):
            raise ValueError("%s: the FAIL line says %s of %s NICs; the table"
                             " has %d of %d not healthy, %d Health: NIC lines"
                             " (cut or edited)" % (name, m.group(1),
                                                   m.group(2), len(bad),
                                                   len(nics), len(named)))
        return "FAIL", None
    raise ValueError("%s is truncated: cxi_node_health's output ends with "
                     "a 'Health: PASS' or 'Health: FAIL' line; its last line "
                     "is '%.80s'" % (name, last))


def parse(name, text):
    """{verdict, nics, lines, interval_s} of one saved output; ValueError
    naming the file and what is wrong."""
    lines = [ln.rstrip() for ln in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    if not text.endswith("\n"):
        raise ValueError("%s is truncated: cxi_node_health's output ends "
                         "with a newline; this one stops in '%.80s'"
                         % (name, lines[-1] if lines else ""))
    if len(lines) == 1 and NONE.match(lines[0]):
        # exit 1: nothing to vouch for, which is not a pass
        return {"verdict": "FAIL", "nics": [], "lines": lines,
                "interval_s": None}
    if not HEADER.match(lines[0]):
        raise ValueError("%s: the first line is not cxi_node_health's table "
                         "header (NIC Kind Link Speed PCIe Flaps Verdict): "
                         "'%.80s'" % (name, lines[0]))
    k = 1
    nics = []
    while k < len(lines) and not lines[k].startswith("Health: "):
        nics.append(_row(name, k + 1, lines[k]))
        k += 1
    if k >= len(lines):
        raise ValueError("%s is truncated: its table (%d NICs) is not "
                         "followed by cxi_node_health's Health: lines"
                         % (name, len(nics)))
    named = [NAMED.match(ln) for ln in lines[k:-1]]
    for j, m in enumerate(named):
        if m is None:
            raise ValueError("%s: line %d is not a 'Health: NIC ... is ...' "
                             "line: '%s'" % (name, k + j + 1,
                                             show(lines[k + j], 80)))
    if not nics:
        raise ValueError("%s: the table lists no NIC" % name)
    verdict, secs = _verdict(name, lines[-1], nics, named)
    return {"verdict": verdict, "nics": nics, "lines": lines[k:],
            "interval_s": secs}


def document(path, text, host):
    """(a document like the JSON tools' (kind "health"), its digest). The
    output names neither its node nor its time: the node is host, the time
    the file's last change (when cxi_node_health finished writing it)."""
    name = os.path.basename(path)
    got = parse(name, text)
    when = datetime.datetime.fromtimestamp(os.stat(path).st_mtime,
                                           datetime.timezone.utc)
    doc = dict(got, kind="health", tool="cxi_node_health", schema_version=0,
               host=host, start_time=when.strftime("%Y-%m-%dT%H:%M:%SZ"))
    # the same text from another node or another day is another run
    key = "cxi_node_health\n%s\n%s\n%s" % (host, doc["start_time"], text)
    return doc, hashlib.sha256(key.encode()).hexdigest()
