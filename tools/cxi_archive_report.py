# SPDX-License-Identifier: BSD-3-Clause
"""cxi_archive report: one sweep as one HTML page that needs no network
(machine rooms are often air-gapped): the heatmaps drawn by a few lines of
JS of our own from the packed figures they show under the pointer, the
histogram inline as PNG (matplotlib).

Nothing of the document runs as code (docs/security.md): names are escaped
in the page's text, and what the script reads (figures, rank labels) is a
JSON data block that the HTML parser cannot end or open an element in
(script_json). The page's Content-Security-Policy allows only its own
script and style, by hash, and data: images: a future slip still runs
nothing."""

import base64
import hashlib
import html
import io
import json
import zlib

import numpy as np

import cxi_archive_db as db

CSS = """body{font:14px sans-serif;margin:1.5em;max-width:75em;color:#222}
.v{font-size:1.6em;padding:.4em .7em;color:#fff;border-radius:4px}
.PASS{background:#2a7d2a}.FAIL{background:#b52020}
.INCONCLUSIVE{background:#b07a00}table{border-collapse:collapse;margin:.5em 0}
td,th{border:1px solid #ccc;padding:2px 8px;text-align:left}
.hm{position:relative;display:inline-block;margin:0 1em 1em 0}
.hm canvas{width:480px;height:480px;image-rendering:pixelated;display:block}
.hw{position:relative}.hm svg{position:absolute;left:0;top:0;width:480px;height:480px}
#tip{position:fixed;background:#ffe;border:1px solid #999;padding:2px 6px;
display:none;pointer-events:none;font-size:12px}.suspect{margin:1em 0;
border-left:4px solid #b52020;padding-left:1em}small{color:#666}"""

# The heatmaps are drawn here from the figures themselves (no picture of
# them is shipped): each matrix comes as integers q, the figure being
# (lo + q) * 10^e, one or two bytes a cell (the two bytes in two planes:
# the high ones repeat and compress), deflated when that saves a tenth.
JS = """const D=JSON.parse(document.getElementById('cxd-data').textContent),
HM=D.hm,LABELS=D.labels,T=document.getElementById('tip');
function b64(s){const b=atob(s),u=new Uint8Array(b.length);
for(let i=0;i<b.length;i++)u[i]=b.charCodeAt(i);return u}
async function cells(m){let u=b64(m.q);if(m.z){
const s=new Blob([u]).stream().pipeThrough(new DecompressionStream('deflate'));
u=new Uint8Array(await new Response(s).arrayBuffer())}
const k=m.n*m.n,a=new Uint16Array(k);
for(let i=0;i<k;i++)a[i]=m.w==2?u[i]|u[k+i]<<8:u[i];return a}
function fig(m,q){return q==m.none?'no figure':(m.e<0?((m.lo+q)/10**-m.e)
.toFixed(-m.e):String((m.lo+q)*10**m.e))+' '+m.unit}
function draw(d,m,a){const c=d.querySelector('canvas'),x=c.getContext('2d'),
im=x.createImageData(m.n,m.n),p=im.data,L=b64(m.lut),top=Math.max(1,m.levels-1);
for(let i=0;i<a.length;i++){const q=a[i],j=q==m.none?768:3*Math.round(q/top*255);
p[4*i]=L[j];p[4*i+1]=L[j+1];p[4*i+2]=L[j+2];p[4*i+3]=255}
x.putImageData(im,0,0)}
async function show(d){const m=HM[d.dataset.m],n=m.n,a=await cells(m);draw(d,m,a);
d.addEventListener('mousemove',function(e){const r=d.querySelector('canvas')
.getBoundingClientRect(),j=Math.floor((e.clientX-r.left)/r.width*n),
i=Math.floor((e.clientY-r.top)/r.height*n);
if(i<0||j<0||i>=n||j>=n){T.style.display='none';return}
T.textContent=LABELS[i]+' \\u2192 '+LABELS[j]+': '+fig(m,a[i*n+j]);
T.style.display='block';T.style.left=(e.clientX+12)+'px';
T.style.top=(e.clientY+12)+'px'});
d.addEventListener('mouseleave',function(){T.style.display='none'})}
Promise.all([...document.querySelectorAll('.hm')].map(show)).then(
function(){document.body.dataset.ready=1},function(e){
document.getElementById('hmerr').textContent='The heatmaps cannot be drawn '+
'here ('+e+'): they need a browser with DecompressionStream (Chromium 80, '+
'Firefox 113, Safari 16.4 or newer).'});"""


def csp_hash(text):
    return "'sha256-%s'" % base64.b64encode(
        hashlib.sha256(text.encode()).digest()).decode()


# Only the page's own script and style (by hash) and its inline PNG; no
# network, no form, no <base>; the DOM's HTML sinks closed (the script
# writes textContent only).
CSP = ("default-src 'none'; script-src %s; style-src %s; img-src data:; "
       "base-uri 'none'; form-action 'none'; "
       "require-trusted-types-for 'script'; trusted-types 'none'"
       % (csp_hash(JS), csp_hash(CSS)))


def script_json(x):
    """x as JSON for a data block inside <script>: '<', '>' and '&' as
    \\u escapes, so no '</script>' or '<!--' of a name can end the block
    or open an element; ensure_ascii escapes U+2028, U+2029 and all else
    beyond ASCII."""
    return json.dumps(x, separators=(",", ":")).replace(
        "<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def esc(x):
    return html.escape("" if x is None else str(x))


def topo_order(ranks):
    """Ranks by group, switch, host: neighbours in the fabric side by side."""
    return sorted(range(len(ranks)), key=lambda i: (
        str(ranks[i].get("group", "")), str(ranks[i].get("switch", "")),
        ranks[i].get("host", ""), i))


def png(fig):
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=80)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode()


def lut(low_bad):
    """viridis as 256 RGB triples, then the grey of a cell with no figure;
    dark where a link is worse."""
    import matplotlib
    cmap = matplotlib.colormaps["viridis" if low_bad else "viridis_r"]
    rgb = (cmap(np.linspace(0, 1, 256))[:, :3] * 255).round().astype(np.uint8)
    raw = rgb.tobytes() + bytes((200, 200, 200))
    return base64.b64encode(raw).decode()


def packed(m):
    """m as integers q (figure = (lo + q) * 10^e): five significant digits
    at its largest figure, fewer only where two bytes cannot hold them."""
    ok = ~np.isnan(m)
    v = m[ok]
    big = float(np.max(np.abs(v))) if v.size else 1.0
    e = int(np.floor(np.log10(big))) - 4 if big > 0 else 0
    while True:
        k = np.round(v / 10.0 ** e)
        lo = int(k.min()) if v.size else 0
        levels = int(k.max()) - lo + 1 if v.size else 1
        if levels < 65535:
            break
        e += 1
    w = 1 if levels < 255 else 2
    none = 255 if w == 1 else 65535
    q = np.full(m.shape, none, dtype="<u2")
    q[ok] = k - lo
    raw = q.astype(np.uint8).tobytes() if w == 1 else \
        q.view(np.uint8).reshape(-1, 2).T.tobytes()  # low plane, high plane
    z = zlib.compress(raw, 6)
    small = len(z) < 0.9 * len(raw)
    return {"q": base64.b64encode(z if small else raw).decode(),
            "z": int(small), "w": w, "none": none, "n": len(m), "lo": lo,
            "e": e, "levels": levels}


def borders(ranks, order, px=480):
    """SVG lines where the switch (1 px) or the group (2 px) changes; the
    switches. only where their blocks are 10 px or more on the page, else
    the lines would hide the cells."""
    n, out, cuts = len(order), [], []
    for k in range(1, n):
        a, b = ranks[order[k - 1]], ranks[order[k]]
        if a.get("group") != b.get("group"):
            cuts.append((k, 2, "#fff"))
        elif a.get("switch") != b.get("switch"):
            cuts.append((k, 1, "#ddd"))
    sw = [k for k, w, _ in cuts if w == 1]
    if sw and min(b - a for a, b in zip([0] + sw, sw)) * px < 10 * n:
        cuts = [c for c in cuts if c[1] == 2]
    for k, w, c in cuts:
        out.append('<path d="M%d 0V%dM0 %dH%d" stroke="%s" stroke-width="%d"'
                   ' vector-effect="non-scaling-stroke"/>' % (k, n, k, n, c, w))
    return "".join(out)


def heatmaps(doc, order):
    ranks, parts, data = doc["ranks"], [], {}
    bw, lat = db.matrices(doc)
    ix = np.ix_(order, order)
    n = len(order)
    svg = ('<svg viewBox="0 0 %d %d" preserveAspectRatio="none">%s</svg>'
           % (n, n, borders(ranks, order)))
    for key, m, unit, title, low_bad in (
            ("bw", bw[ix], "MB/s", "Bandwidth [MB/s]", True),
            ("lat", lat[ix], "us", "Latency [us]", False)):
        ok = ~np.isnan(m)
        lo, hi = (np.min(m[ok]), np.max(m[ok])) if ok.any() else (0, 0)
        data[key] = dict(packed(m), unit=unit, lut=lut(low_bad))
        parts.append('<div class="hm" data-m="%s"><b>%s</b> <small>%.4g '
                     '(%s) to %.4g; rows send, columns receive</small>'
                     '<div class="hw"><canvas width="%d" '
                     'height="%d" aria-label="%s heatmap"></canvas>%s</div>'
                     '</div>' % (key, title, lo, "dark" if low_bad else
                                 "light", hi, n, n, key, svg))
    labels = ["%d %s" % (i, ranks[i].get("host", "")) + (
        " (%s/%s)" % (ranks[i].get("group", ""), ranks[i].get("switch", ""))
        if ranks[i].get("switch") else "") for i in order]
    return "".join(parts), data, labels


def history(con, s, start, digest):
    """How many earlier archived runs named this suspect (start times are
    to the second: a run of the same second counts, this one does not)."""
    if con is None:
        return "no archive given"
    name = s["name"].split(" (")[0]
    # "NAME" or "NAME (...)", compared as text: a name's '%' or '_' is no
    # LIKE wildcard
    rows = con.execute(
        "SELECT runs.id, runs.start_time FROM suspects JOIN runs ON "
        "runs.id = suspects.run WHERE suspects.kind = ? AND (suspects.name ="
        " ? OR substr(suspects.name, 1, ?) = ?) AND runs.start_time <= ? "
        "AND runs.digest != ? ORDER BY runs.start_time",
        (s["kind"], name, len(name) + 2, name + " (", start,
         digest)).fetchall()
    total = con.execute("SELECT count(*) FROM runs WHERE kind = 'sweep' AND "
                        "start_time <= ? AND digest != ?",
                        (start, digest)).fetchone()[0]
    if not rows:
        return "not named in the %d earlier sweeps archived" % total
    return "named before in %d of %d earlier sweeps archived (runs %s)" % (
        len(rows), total, ", ".join(str(r[0]) for r in rows[-10:]))


def suspect_html(doc, s, con, digest):
    ranks, res = doc["ranks"], doc.get("resolution") or {}
    mine = set(s.get("ranks") or [])
    links = [o for o in doc.get("outliers") or []
             if o.get("metric") == s["metric"] and
             (o.get("src") in mine or o.get("dst") in mine)]
    rows = "".join(
        "<tr><td>%s &rarr; %s</td><td>%.5g</td><td>%.5g</td><td>%.5g</td>"
        "<td>%s</td></tr>" % (
            esc(ranks[o["src"]]["host"]), esc(ranks[o["dst"]]["host"]),
            o.get("value") or 0, o.get("reference") or 0,
            o.get("limit") or 0, "-" if o.get("retest") is None else
            "%.5g" % o["retest"]) for o in links[:12])
    ctr = "; ".join("%s: %s" % (ranks[r]["host"], ranks[r]["counters_moved"])
                    for r in sorted(mine)
                    if r < len(ranks) and ranks[r].get("counters_moved"))
    tol = (res.get("bw" if s["metric"] == "bw_mb_s" else "lat") or {}).get(
        "tolerance_pct")
    return ('<div class="suspect"><h3>%s%s</h3><p>%d of %d links out of '
            'tolerance in %s (within %s %% of the typical link)</p>'
            '<table><tr><th>link</th><th>figure</th><th>typical</th>'
            '<th>bound</th><th>retest</th></tr>%s</table>%s'
            '<p>Counters that moved: %s</p><p>Archive: %s</p></div>'
            % (esc("" if s["name"].startswith(s["kind"]) else s["kind"] + " "),
               esc(s["name"]), s.get("bad", 0),
               s.get("links", 0), esc(s["metric"]), esc(tol), rows,
               "<small>(the first 12 of %d)</small>" % len(links)
               if len(links) > 12 else "", esc(ctr or "none"),
               esc(history(con, s, doc.get("start_time") or "", digest))))


def spread_png(doc):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    bw, _ = db.matrices(doc)
    v = bw[~np.isnan(bw)]
    res = (doc.get("resolution") or {}).get("bw") or {}
    fig, ax = plt.subplots(figsize=(7, 2.6), layout="constrained")
    ax.hist(v, bins=60, color="#1f5fa8")
    if res.get("typical"):
        t = res["typical"]
        ax.axvline(t, color="k", label="typical")
        ax.axvline(t * (1 - res.get("tolerance_pct", 0) / 100), color="red",
                   linestyle="--", label="bound")
        ax.legend()
    ax.set_xlabel("link bandwidth [MB/s]")
    ax.set_ylabel("links")
    out = png(fig)
    plt.close(fig)
    return out


def num(v):
    """A figure to 5 significant digits, as the tables show them."""
    return "%.5g" % v if isinstance(v, (int, float)) else esc(v)


def facts(doc):
    res, st = doc.get("resolution") or {}, doc.get("link_stats") or {}
    rows = []
    for m, key in (("bandwidth", "bw"), ("latency", "lat")):
        r = res.get(key) or {}
        rows.append("<tr><td>%s</td><td>%s</td><td>%s %%</td><td>%s %%</td>"
                    "</tr>" % (m, num(r.get("typical")), num(r.get(
                        "noise_pct")), num(r.get("tolerance_pct"))))
    spread = "".join("<tr><td>%s</td>%s</tr>" % (esc(k), "".join(
        "<td>%.5g</td>" % v for v in s.values() if v is not None))
        for k, s in st.items() if isinstance(s, dict))
    sch = doc.get("schedule") or {}
    return ("<h2>Resolution, spread, schedule</h2><table><tr><th>metric</th>"
            "<th>typical</th><th>noise</th><th>tolerance</th></tr>%s</table>"
            "<table><tr><th>links</th><th>min</th><th>p5</th><th>median</th>"
            "<th>p95</th><th>max</th></tr>%s</table><p>Schedule: %s: %s. "
            "Retest: %s pairs. %s rounds, %.3g s.</p>"
            % ("".join(rows), spread, esc(sch.get("kind")),
               esc(sch.get("why")), esc((doc.get("retest") or {}).get(
                   "pairs")), len(doc.get("rounds") or []),
               doc.get("seconds") or 0))


def page(doc, con, name, digest):
    order = topo_order(doc["ranks"])
    maps, data, labels = heatmaps(doc, order)
    v = doc.get("verdict") or "?"
    sus = doc.get("suspects") or []
    return ("<!DOCTYPE html><html lang=en><head><meta charset=utf-8>"
            '<meta http-equiv="Content-Security-Policy" content="%s"><title>'
            "cxi_sweep %s: %s</title><style>%s</style></head><body>"
            '<p id="verdict" class="v %s">%s</p><p>%s ranks, %s, started %s '
            "on %s; <code>%s</code></p><h2>Suspects (%d)</h2>"
            '<div id="suspects">%s</div><h2>Heatmaps</h2><p><small>Ranks in '
            "topology order (group, switch, host); white lines: groups, grey:"
            " switches. Point at a cell for its figure.</small></p>"
            '<p id="hmerr"></p>%s'
            '<h2>Spread</h2><img alt="spread" src="%s">%s<div id="tip"></div>'
            '<script type="application/json" id="cxd-data">%s</script>'
            "<script>%s</script></body></html>"
            % (CSP, esc(name), esc(v), CSS, esc(v), esc(v), len(doc["ranks"]),
               esc(doc.get("provider")), esc(doc.get("start_time")),
               esc(doc.get("host")), esc(" ".join(doc.get("command") or [])),
               len(sus), "".join(suspect_html(doc, s, con, digest) for s in sus)
               or "<p>none</p>", maps, spread_png(doc), facts(doc),
               script_json({"hm": data, "labels": labels}), JS))


def write(doc, out, con, name, digest):
    text = page(doc, con, name, digest).encode()
    with open(out, "wb") as f:
        f.write(text)
    return len(text)
