# SPDX-License-Identifier: BSD-3-Clause
"""cxi_archive's checks of a document from elsewhere: nothing in it is
trusted (docs/security.md). Each check raises ValueError naming what is
wrong; cxi_archive_db turns it into an InputError (exit 2) before anything
is written to the archive or the page.

  - every string is Unicode that UTF-8 can carry (no lone surrogate from a
    \\udXXX escape), and the document is nested no deeper than ours are;
  - names (hosts, NICs, addresses, switches, groups, suspects) follow the
    tools' rule, lib/base/names.h: not empty, within their field, no
    control character, line separator or bidirectional control;
  - the words the queries print as text (kind, tool, verdict, start) are
    short text with no control character;
  - what the archive and the report read has the type they read it as:
    the matrices square and of numbers or nulls, the outliers' and
    suspects' ranks inside the document, figures numbers.
"""

# The room of each name field in the tools (struct cxd_sweep_rank, the
# topology's names, a suspect's name: CXD_OUT_NAME_LEN - 1).
NAME_MAX = {"host": 255, "nic": 63, "address": 159, "switch": 255,
            "group": 255, "suspect": 1023, "word": 64}
DEPTH_MAX = 32  # our documents nest 6 deep


def _refused(cp):
    if cp < 0x20 or 0x7f <= cp <= 0x9f:
        return "a control character"
    if cp in (0x2028, 0x2029):
        return "a line or paragraph separator"
    if 0x202a <= cp <= 0x202e or 0x2066 <= cp <= 0x2069:
        return "a bidirectional control"
    if 0xd800 <= cp <= 0xdfff:
        return "not UTF-8 (a lone surrogate)"
    return None


def name_problem(s, limit):
    """Why s cannot be carried as a name of `limit` bytes, or None."""
    if not isinstance(s, str):
        return "not a string"
    if s == "":
        return "empty"
    for i, c in enumerate(s):
        what = _refused(ord(c))
        if what:
            return "%s (U+%04X) at character %d" % (what, ord(c), i + 1)
    n = len(s.encode("utf-8"))
    if n > limit:
        return "%d bytes long, over %d" % (n, limit)
    return None


def show(s, head=48):
    """s as a message or a text output shows it, whatever it holds: what
    the rule refuses as \\xHH or \\uHHHH, a backslash doubled; a long one
    by its head and length."""
    s = str(s)
    out = []
    for c in s[:head]:
        cp = ord(c)
        if _refused(cp):
            out.append("\\x%02x" % cp if cp < 0x100 else "\\u%04x" % cp)
        else:
            out.append("\\\\" if c == "\\" else c)
    return "".join(out) + ("... (%d characters)" % len(s)
                           if len(s) > head else "")


def text(s):
    """A string of an archive for a text output: as it is, or shown
    escaped where it holds what a terminal would act on (archives written
    before the checks)."""
    s = "" if s is None else str(s)
    return s if not any(_refused(ord(c)) for c in s) else show(s, 10 ** 6)


def _name(where, s, kind, need=True):
    if s is None and not need:
        return
    why = name_problem(s, NAME_MAX[kind])
    if why:
        raise ValueError("%s '%s' cannot be carried into the outputs: %s"
                         % (where, show(s) if isinstance(s, str) else s,
                            why))


def walk(doc):
    """Every string Unicode, nesting bounded; iterative, so a deep
    document cannot exhaust the stack here."""
    todo = [(doc, 1)]
    while todo:
        x, depth = todo.pop()
        if depth > DEPTH_MAX:
            raise ValueError("nested deeper than %d levels (ours are 6)"
                             % DEPTH_MAX)
        if isinstance(x, dict):
            todo += [(k, depth) for k in x] + [(v, depth + 1)
                                               for v in x.values()]
        elif isinstance(x, list):
            todo += [(v, depth + 1) for v in x]
        elif isinstance(x, str):
            for i, c in enumerate(x):
                if 0xd800 <= ord(c) <= 0xdfff:
                    raise ValueError("a string that is not Unicode (a lone"
                                     " surrogate \\u%04x at character %d):"
                                     " '%s'" % (ord(c), i + 1, show(x)))


# A figure: what SQLite's INTEGER and the archive's float32 rows hold.
INT_MAX = 2 ** 63 - 1
FIG_MAX = 3.4e38


def _is_num(v):
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return False
    return -INT_MAX <= v <= INT_MAX if isinstance(v, int) else \
        -FIG_MAX <= v <= FIG_MAX  # NaN and infinity (1e999) fail


def _nums(where, d, keys, null=True):
    for k in keys:
        if (d.get(k) is not None or not null and k in d) and \
                not _is_num(d[k]):
            raise ValueError("%s \"%s\" is not a number" % (where, k))


def _obj(where, v, need=False):
    if v is None and not need:
        return {}
    if not isinstance(v, dict):
        raise ValueError("%s is not an object" % where)
    return v


def _list(where, v, need=False):
    if v is None and not need:
        return []
    if not isinstance(v, list):
        raise ValueError("%s is not a list" % where)
    return v


def _index(where, v, n):
    if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < n:
        raise ValueError("%s %r is not a rank of the %d" % (where, v, n))


def head(doc):
    """The stamp every kind has: the words the queries print, the host."""
    for k in ("kind", "tool", "verdict", "start_time", "version",
              "provider"):
        if doc.get(k) is not None:
            _name("\"%s\"" % k, doc[k], "word")
    if doc.get("host") is not None:
        _name("the document's \"host\"", doc["host"], "host")
    if not all(isinstance(a, str) for a in _list("\"command\"",
                                                  doc.get("command"))):
        raise ValueError("\"command\" is not a list of strings")


def _rank(i, r):
    where = "rank %d's" % i
    if not isinstance(r, dict) or "host" not in r:
        raise ValueError("\"ranks\" is not a list of ranks with a host")
    _name(where + " host", r["host"], "host")
    for k in ("nic", "address", "switch", "group"):
        _name("%s %s" % (where, k), r.get(k), k, need=False)
    if r.get("counters_moved") is not None and \
            not isinstance(r["counters_moved"], str):
        raise ValueError("%s \"counters_moved\" is not a string" % where)


def _matrix(key, m, n, need):
    if m is None and not need:
        return
    if not isinstance(m, list) or len(m) != n or not all(
            isinstance(r, list) and len(r) == n for r in m):
        raise ValueError("\"%s\" is not a %d x %d matrix" % (key, n, n))
    for row in m:
        for v in row:
            if v is not None and not _is_num(v):
                raise ValueError("\"%s\" holds %s, not a number (of at "
                                 "most %g) or null" % (key, show(repr(v)),
                                                       FIG_MAX))


def _links(key, doc, n):
    for i, o in enumerate(_list("\"%s\"" % key, doc.get(key))):
        where = "%s %d" % (key, i)
        o = _obj(where, o, need=True)
        _index(where + "'s src", o.get("src"), n)
        _index(where + "'s dst", o.get("dst"), n)
        _name(where + "'s metric", o.get("metric"), "word")
        _nums(where, o, ("value", "reference", "limit", "retest"))


def _suspects(doc, n):
    for i, s in enumerate(_list("\"suspects\"", doc.get("suspects"))):
        where = "suspect %d's" % i
        s = _obj("suspect %d" % i, s, need=True)
        _name(where + " kind", s.get("kind"), "word")
        _name(where + " metric", s.get("metric"), "word")
        _name(where + " name", s.get("name"), "suspect")
        _name(where + " host", s.get("host"), "host", need=False)
        _name(where + " nic", s.get("nic"), "nic", need=False)
        _nums(where, s, ("bad", "links"), null=False)
        for r in _list(where + " ranks", s.get("ranks")):
            _index(where + " rank", r, n)


def _figures(doc):
    res = _obj("\"resolution\"", doc.get("resolution"))
    for m in ("bw", "lat"):
        _nums("resolution's %s" % m, _obj("resolution's %s" % m,
                                          res.get(m)),
              ("typical", "noise_pct", "tolerance_pct"))
    for k, st in _obj("\"link_stats\"", doc.get("link_stats")).items():
        st = _obj("link_stats' %s" % show(k), st)
        _nums("link_stats' %s" % show(k), st, list(st))
    sch = _obj("\"schedule\"", doc.get("schedule"))
    for k in ("kind", "why"):
        if sch.get(k) is not None and not isinstance(sch[k], str):
            raise ValueError("schedule's \"%s\" is not a string" % k)
    _nums("retest", _obj("\"retest\"", doc.get("retest")), ("pairs",))
    _nums("the document", doc, ("seconds",))
    _list("\"rounds\"", doc.get("rounds"))


def sweep(doc):
    ranks = doc.get("ranks")
    if not isinstance(ranks, list) or len(ranks) < 2:
        raise ValueError("\"ranks\" is not a list of at least 2 ranks with "
                         "a host")
    for i, r in enumerate(ranks):
        _rank(i, r)
    n = len(ranks)
    for key in ("bw_mb_s", "lat_us"):
        _matrix(key, doc.get(key), n, True)
    for key in ("bw_spread_pct", "lat_spread_pct"):
        _matrix(key, doc.get(key), n, False)
    _links("outliers", doc, n)
    _links("unjudged", doc, n)
    _suspects(doc, n)
    _figures(doc)


def pair(doc):
    for i, r in enumerate(_list("\"results\"", doc.get("results"))):
        _nums("result %d" % i, _obj("result %d" % i, r, need=True),
              ("size", "bw_mb_s", "p50_us"))
    g = _obj("\"gate\"", doc.get("gate"))
    _nums("the gate", g, ("min", "max"))
    for k in ("verdict", "figure"):
        if g.get(k) is not None:
            _name("the gate's %s" % k, g[k], "word")


def health(doc):
    for x in doc.get("nics") or []:
        _name("NIC", x.get("nic"), "nic")
        for k in ("kind", "link", "speed", "pcie", "verdict", "why",
                  "unread"):
            if x.get(k) not in (None, ""):
                _name("NIC %s's %s" % (show(x.get("nic")), k), x[k],
                      "suspect")


def check(doc):
    """ValueError unless doc (of a kind the archive knows) can be carried
    into the archive, its queries and the report."""
    walk(doc)
    head(doc)
    {"sweep": sweep, "pair": pair, "health": health}.get(
        doc["kind"], lambda d: None)(doc)
