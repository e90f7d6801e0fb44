# SPDX-License-Identifier: BSD-3-Clause
"""Documents made of the hostile names (tests/hostile_names.txt) and the
checks of what cxi_archive made of them (test_hostile_names.sh).

    hostile_docs.py make DIR           DIR/carry1.json, carry2.json: every
        carried name as host, NIC, address, switch and group of a 17-rank
        FAIL sweep, a rank and a switch named as suspects; pass1-3.json:
        the same ranks passing, one losing a little each time;
        clean.json: carry1 with plain names; DIR/refused/:
        a document per refused name and field; DIR/bad/: nested, huge, cut,
        NaN, a huge integer, wrong types; DIR/expect.json: what each bad
        one must be refused with
    hostile_docs.py refused ERR DIR    every document of refused/ and bad/
        named on stderr (ERR) with its reason, shown escaped
    hostile_docs.py runs OUT DIR       runs --json: the suspects' names whole
    hostile_docs.py text OUT DIR       a query's text: the names as they are
        (refused ones never got in), no control byte
    hostile_docs.py compare OUT DIR    compare --json: rank keys host:nic
    hostile_docs.py dom OUT CLEAN TITLE DIR   the probe's record of the
        report in chromium (OUT; CLEAN: of the same document with plain
        names): the title TITLE, the same elements as the plain page's, its
        two scripts, no handler attribute, the heatmaps drawn, the
        pointer's read-out naming each rank as the document does
    hostile_docs.py tamper PAGE OUT    PAGE with a script and a style of
        its own inserted (the CSP must block both)

Last line printed: the verdict; exit 1 on a failed check.
"""
import json
import os
import sys

import hostile

ROOM = hostile.NIC_MAX


def carried():
    return [(i, hostile.text(b)) for i, f, b in hostile.names()
            if f == "carry"]


def _fits(s, limit):
    return len(s.encode()) <= limit


def sweep_doc(start, slow, plain=False, passed=False):
    """The carried names in every field (plain: names of the same shape
    that are plainly names); rank k slow (a suspect), the switch of rank
    k+1 high in latency (a suspect); passed: rank k a little slow, no
    outlier, no suspect, PASS."""
    names = [s for _, s in carried()]
    k = names.index(next(s for i, s in carried() if i == "script_end"))
    if plain:
        names = ["n%d" % i for i in range(len(names))]
    n = len(names)
    ranks = []
    for i in range(n):
        nic = names[(i + 1) % n]
        addr = names[(i + 4) % n]
        ranks.append({"rank": i, "host": names[i],
                      "nic": nic if _fits(nic, ROOM) else "cxi0",
                      "address": addr if _fits(addr, 159) else "a%d" % i,
                      "switch": names[(i + 2) % n],
                      "group": names[(i + 3) % n], "suspect": False})
    bw = [[None if i == j else 10000.0 + i + j for j in range(n)]
          for i in range(n)]
    lat = [[None if i == j else 2.0 for j in range(n)] for i in range(n)]
    out = []
    for j in range(n):
        if j != k:
            bw[k][j] = slow
            out.append({"src": k, "dst": j, "metric": "bw_mb_s",
                        "value": slow, "reference": 10000.0,
                        "limit": 9000.0, "retest": slow})
    s2 = (k + 1) % n
    ranks[k]["suspect"] = ranks[s2]["suspect"] = not passed
    sus = [{"kind": "rank", "name": "%s (rank %d, %s)" % (
        names[k], k, ranks[k]["nic"]), "rank": k, "host": names[k],
        "nic": ranks[k]["nic"], "ranks": [k], "metric": "bw_mb_s",
        "bad": n - 1, "links": 2 * (n - 1)},
        {"kind": "switch", "name": "switch %s (rank %d)" % (
            ranks[s2]["switch"], s2), "ranks": [s2], "metric": "lat_us",
         "bad": n - 1, "links": 2 * (n - 1)}]
    return {"schema_version": 1, "kind": "sweep", "tool": "cxi_sweep",
            "version": "0.1.0", "host": names[0], "start_time": start,
            "command": ["cxi_sweep", "--topology", names[2]],
            "provider": "tcp", "options": {"size": 65536},
            "ranks": ranks, "bw_mb_s": bw, "lat_us": lat,
            "resolution": {"bw": {"typical": 10000.0, "noise_pct": 1.0,
                                  "tolerance_pct": 10.0},
                           "lat": {"typical": 2.0, "noise_pct": 1.0,
                                   "tolerance_pct": 10.0}},
            "outliers": [] if passed else out,
            "suspects": [] if passed else sus,
            "verdict": "PASS" if passed else "FAIL", "seconds": 3.5}


def _write(path, doc, raw=None):
    """doc as JSON; raw: (placeholder, bytes) put in as they are."""
    text = json.dumps(doc).encode()
    if raw:
        text = text.replace(json.dumps(raw[0]).encode(),
                            b'"' + raw[1] + b'"')
    with open(path, "wb") as f:
        f.write(text)


def make(top):
    for d in ("refused", "bad"):
        os.makedirs(os.path.join(top, d), exist_ok=True)
    base = sweep_doc("2026-03-01T00:00:00Z", 5000.0)
    _write(os.path.join(top, "carry1.json"), base)
    _write(os.path.join(top, "carry2.json"),
           sweep_doc("2026-03-08T00:00:00Z", 4000.0))
    _write(os.path.join(top, "clean.json"),
           sweep_doc("2026-03-01T00:00:00Z", 5000.0, plain=True))
    for i, slow in enumerate((9900.0, 9600.0, 9300.0)):
        _write(os.path.join(top, "pass%d.json" % (i + 1)),
               sweep_doc("2026-04-0%dT00:00:00Z" % (i + 1), slow,
                         passed=True))
    expect = {}
    for ident, fate, b in hostile.names():
        for field in ("host", "nic", "switch", "group", "suspect"):
            limit = ROOM if field == "nic" else 255
            if fate == "carry" and len(b) <= limit:
                continue
            doc = json.loads(json.dumps(base))
            name = "refused/%s-%s.json" % (ident, field)
            where = "rank 0's %s" % field
            if field == "suspect":
                where = "suspect 0's host"
                tgt = doc["suspects"][0]
                field = "host"
            else:
                tgt = doc["ranks"][0]
            try:
                tgt[field] = b.decode("utf-8")
                raw = None
            except UnicodeDecodeError:
                tgt[field] = "@@RAW@@"
                raw = ("@@RAW@@", b)
                where = "not UTF-8 text"
            _write(os.path.join(top, name), doc, raw)
            expect[name] = where
    _bad(top, base, expect)
    with open(os.path.join(top, "expect.json"), "w") as f:
        json.dump(expect, f, indent=1)


def _bad(top, base, expect):
    """Documents broken otherwise, and what each must be refused with."""
    def put(name, text, why):
        with open(os.path.join(top, "bad", name), "wb") as f:
            f.write(text if isinstance(text, bytes) else text.encode())
        expect["bad/" + name] = why
    doc = json.dumps(base)
    put("deep.json", "[" * 200000 + "]" * 200000,
        "nested deeper than this reader goes")
    nest = json.loads(doc)
    nest["options"] = {"x": json.loads("[" * 40 + "]" * 40)}
    put("deep40.json", json.dumps(nest), "nested deeper than 32 levels")
    put("huge.json", doc[:-1] + " " * 2000000 + "}",
        "over 1 MB, the most a document may be (--max-mb)")
    put("cut.json", doc[:len(doc) // 2], "is truncated")
    put("nan.json", doc.replace("10000.0", "NaN", 1),
        "NaN is not a JSON number")
    put("bigint.json", doc.replace("10000.0", "9" * 5000, 1),
        "not one of our documents")
    put("big_float.json", doc.replace("10000.0", "1e999", 1),
        "\"typical\" is not a number")
    put("surrogate.json", doc.replace(json.dumps(base["ranks"][1]["host"]),
                                      '"a\\udc80b"', 1),
        "a lone surrogate")
    put("nul.json", doc.replace(json.dumps(base["ranks"][1]["host"]),
                                '"a\\u0000b"', 1),
        "'a\\x00b' cannot be carried into the outputs")
    for name, path, value, why in (
            ("matrix_str.json", ("bw_mb_s", 0, 1), "fast",
             "\"bw_mb_s\" holds 'fast', not a number"),
            ("matrix_inf.json", ("bw_mb_s", 1, 0), float("inf"),
             "Infinity is not a JSON number"),
            ("kind_list.json", ("kind",), ["sweep"],
             "is not one of our documents"),
            ("outlier_big.json", ("outliers", 0, "value"), 10 ** 30,
             "outliers 0 \"value\" is not a number"),
            ("suspect_bad.json", ("suspects", 0, "bad"), None,
             "suspect 0's \"bad\" is not a number"),
            ("stats_list.json", ("link_stats",), {"bw_mb_s": [1]},
             "link_stats' bw_mb_s is not an object"),
            ("matrix_bool.json", ("lat_us", 1, 0), True,
             "\"lat_us\" holds True"),
            ("outlier_rank.json", ("outliers", 0, "src"), 99,
             "outliers 0's src 99 is not a rank of the 17"),
            ("suspect_ranks.json", ("suspects", 0, "ranks", 0), "x",
             "suspect 0's rank 'x' is not a rank"),
            ("host_type.json", ("ranks", 2, "host"), ["h"],
             "rank 2's host '['h']' cannot be carried"),
            ("figure_type.json", ("seconds",), "3 s",
             "\"seconds\" is not a number"),
            ("verdict_esc.json", ("verdict",), "PASS\x1b[2J",
             "\"verdict\" 'PASS\\x1b[2J' cannot be carried")):
        d = json.loads(doc)
        at = d
        for p in path[:-1]:
            at = at[p]
        at[path[-1]] = value
        put(name, json.dumps(d), why)


def _lines(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read().splitlines()


def refused(err, top):
    with open(os.path.join(top, "expect.json")) as f:
        expect = json.load(f)
    lines = _lines(err)
    bad = []
    for name, why in sorted(expect.items()):
        base = os.path.basename(name)
        hit = [ln for ln in lines if base in ln]
        if not any(why in ln for ln in hit):
            bad.append("%s: want '%s', got %s" % (name, why, hit[:1]))
    for ln in lines:
        if any(ord(c) < 0x20 or ord(c) == 0x7f for c in ln):
            bad.append("a control character on stderr: %r" % ln[:100])
    return bad, "%d documents refused, each named with its reason" % \
        len(expect)


def _names():
    return [s for _, s in carried()]


def runs(out, top):
    with open(out) as f:
        rows = json.load(f)
    names = _names()
    got = [s for r in rows for s in r["suspects"]]
    want = ["%s (rank %d, " % (names[names.index(h)], names.index(h))
            for h in [n for i, n in carried() if i == "script_end"]]
    bad = [] if any(g.startswith(want[0]) for g in got) else \
        ["the rank suspect is not among %r" % got]
    sw = [g for g in got if g.startswith("switch ")]
    if len(sw) != 2:
        bad.append("the switch suspect of both runs: %r" % sw)
    return bad, "runs --json: the suspects named whole (%d)" % len(got)


def text(out, top):
    raw = open(out, "rb").read()
    bad = ["a control byte 0x%02x in the text" % c for c in set(raw)
           if c < 0x20 and c not in (9, 10)]
    txt = raw.decode("utf-8")
    names = [n for n in _names() if n in txt]
    if not names:
        bad.append("no carried name in the text")
    return bad, "the text holds %d names as they are, no control byte" % \
        len(names)


def compare(out, top):
    with open(out) as f:
        res = json.load(f)
    names = _names()
    k = next(s for i, s in carried() if i == "script_end")
    moved = {x["src"] for x in res["links"]}
    bad = []
    if not any(m.rsplit(":", 1)[0] == k for m in moved):
        bad.append("the slow rank's links did not move: %r" % sorted(moved))
    if not all(m.rsplit(":", 1)[0] in names for m in moved):
        bad.append("a key that is no host:nic of the document")
    return bad, "compare --json: %d links moved, keys host:nic" % \
        len(res["links"])


def _order(ranks):
    return sorted(range(len(ranks)), key=lambda i: (
        ranks[i]["group"], ranks[i]["switch"], ranks[i]["host"], i))


def _record(path):
    """The probe's record: the JSON line that --dump-dom left in #out."""
    import html
    text = open(path, encoding="utf-8").read()
    start = text.index('<pre id="out">') + len('<pre id="out">')
    return json.loads(html.unescape(text[start:text.index("</pre>",
                                                          start)]))


def dom(out, clean, title, top):
    rec, plain = _record(out), _record(clean)
    with open(os.path.join(top, "carry1.json")) as f:
        doc = json.load(f)
    r, bad = doc["ranks"], []
    label = ["%d %s (%s/%s)" % (i, r[i]["host"], r[i]["group"],
                                r[i]["switch"]) for i in _order(r)]
    if rec["title"] != title:
        bad.append("title %r, want %r" % (rec["title"], title))
    if rec["ready"] != "1":
        bad.append("the script did not run to its end (data-ready %r)"
                   % rec["ready"])
    if rec["scripts"] != ["application/json", ""]:
        bad.append("scripts: %r, want the data block and the page's own"
                   % rec["scripts"])
    if rec["tags"] != plain["tags"]:
        bad.append("elements %r, the plain page's %r" % (
            rec["tags"], plain["tags"]))
    if rec["handlers"]:
        bad.append("handler attributes: %r" % rec["handlers"][:3])
    if not all(rec["drawn"]) or len(rec["drawn"]) != 2:
        bad.append("a heatmap not drawn: %r" % rec["drawn"])
    if not rec["images"] or not all(w > 0 for w in rec["images"]):
        bad.append("the histogram (a data: PNG) not shown: %r"
                   % rec["images"])
    n = len(label)
    for t, tip in enumerate(rec["tips"]):
        i = t % n
        want = "%s \u2192 %s: " % (label[i], label[(i + 1) % n])
        if not tip.startswith(want):
            bad.append("read-out %r, want it to start %r" % (tip, want))
            break
    names = [s for _, s in carried()]
    shown = [s for s in names if s in rec["text"]]
    return bad, ("the report: its own title, the plain page's %d elements, "
                 "2 scripts, no handler, both heatmaps drawn, the histogram "
                 "shown, %d read-outs naming every rank, %d names in its "
                 "text" % (sum(rec["tags"].values()), len(rec["tips"]),
                           len(shown)))


def tamper(page, out):
    with open(page, encoding="utf-8") as f:
        text = f.read()
    text = text.replace("<body>", "<body><script>document.title='RAN'"
                        "</script><p style=\"color:red\">x</p>", 1)
    with open(out, "w", encoding="utf-8") as f:
        f.write(text)
    return [], "a tampered copy: a script and a style of its own"


def made(top):
    make(top)
    return [], "documents written"


if __name__ == "__main__":
    sys.exit(hostile.check_main({
        "make": made, "refused": refused, "runs": runs, "text": text,
        "compare": compare, "dom": dom, "tamper": tamper}, sys.argv[1:]))
