# SPDX-License-Identifier: BSD-3-Clause
"""platgen.py's fabrics (docs/simulation.md): the Fabric model of a
platform, and the dragonfly built into one, with its intended route
between two hosts (the two-level fat tree: platgen_ft.py). platgen.py
parses the command line and writes the files."""


NODE_GBPS = 200.0  # a node's link: 200 Gb/s = 25 GB/s (10^9 bytes)
LINK_LAT_NS = 250.0  # every link's latency


class UsageError(Exception):
    """Bad input: exit 2 with this message."""


class Fabric:
    """Hosts, routers, links and the routing graph's edges of one platform."""

    def __init__(self, kind, node_bw, lat):
        self.kind = kind
        self.node_bw = node_bw
        self.lat = lat
        self.links = {}  # name -> bandwidth (bytes/s)
        # Links that add no latency and take no direction: the L1 lanes
        # (SHARED) and the hosts' ports (FATPIPE).
        self.lanes = set()
        self.fatpipe = set()
        self.lat_factor = {}  # name -> latency multiplier (--slow-lat)
        self.hosts = []  # (name, switch, group or None)
        self.routers = []
        self.edges = []  # (src, dst, [(link, "UP"|"DOWN")])
        self.sets = {}  # (kind, name) -> [link names]: what --slow may name
        # Links between two switches, as designed (before --down): name ->
        # (switch A, switch B, physical links). The topology file's link
        # lines are made from it (platgen --links, platgen_links.py).
        self.joins = {}
        # What platgen writes beside the platform: the link lines and
        # their XML properties (--links), the hostfile's hosts (--job;
        # None: every host).
        self.write_links = False
        self.job_hosts = None
        self.geometry = {}
        self.notes = []  # what the platform holds, for the header comment

    def link(self, name, bw):
        self.links[name] = bw
        return name

    def lane(self, name, bw, fatpipe=False):
        self.lanes.add(name)
        if fatpipe:
            self.fatpipe.add(name)
        return self.link(name, bw)

    def policy(self, name):
        return ("FATPIPE" if name in self.fatpipe else
                "SHARED" if name in self.lanes else "SPLITDUPLEX")

    def link_latency(self, name):
        """A link's latency: none for a lane or a port (each is a limit on
        a hop already on the route, not another hop)."""
        return 0.0 if name in self.lanes else self.lat * self.lat_factor.get(name, 1.0)

    def latency(self, route):
        """A route's latency: the sum of its links'."""
        return sum(self.link_latency(lk) for lk, _ in route)

    def add_set(self, kind, name, links):
        self.sets.setdefault((kind, name), []).extend(links)

    def join(self, name, a, b, count):
        """Record that link `name` joins switches a and b and stands for
        `count` physical links."""
        self.joins[name] = (a, b, count)
        return name


def host_name(i, n):
    return "nid%0*d" % (max(4, len(str(n - 1))), i)


# ---------------------------------------------------------------- dragonfly
def df_peer_index(i, j):
    """Where group j sits among group i's G-1 peers."""
    return j if j < i else j - 1


def df_attach(geo, i, j, k):
    """The switch of group i where link k of the bundle i-j lands. By
    default (--global-landing all) a group's (G-1)*W global ports are dealt
    round-robin over all its switches; over K switches, the bundle to the
    p-th other group takes switches p*K .. p*K+K-1 (mod S) and link k the
    (k mod K)-th of them, so that K = 1 puts a whole bundle on one switch
    and the bundles to different groups on different switches."""
    p = df_peer_index(i, j)
    K = geo.get("landing", "all")
    if K == "all":
        return (p * geo["W"] + k) % geo["S"]
    return (p * K + k % K) % geo["S"]


def df_place(geo):
    """Number the hosts switch by switch: geo["at"][i] is host i's (group,
    switch), geo["on"][(g, s)] the hosts on switch s of group g (H, or
    what --fill says for that switch), geo["names"] their names."""
    G, S, H = geo["G"], geo["S"], geo["H"]
    fill = geo.get("fill", {})
    geo["at"], geo["on"] = [], {}
    for g in range(G):
        for s in range(S):
            n = fill.get((g, s), H)
            geo["on"][(g, s)] = list(range(len(geo["at"]), len(geo["at"]) + n))
            geo["at"] += [(g, s)] * n
    n = len(geo["at"])
    geo["names"] = [host_name(i, n) for i in range(n)]
    return geo["names"]


def df_l1(g, a, b):
    """The L1 connection between switches a and b of group g (its aggregate
    link), with the direction a->b."""
    lo, hi = min(a, b), max(a, b)
    return ("l1-g%d-s%d-s%d" % (g, lo, hi), "UP" if a < b else "DOWN")


def df_lane_out(host, t):
    """The lane that carries host's traffic over the L1 connection from its
    switch to switch t of its group: one physical link of the connection."""
    return ("l1out-%s-s%d" % (host, t), None)


def df_lane_in(host, y):
    """The lane that carries traffic for host over the L1 connection from
    switch y of its group to the host's switch."""
    return ("l1in-%s-s%d" % (host, y), None)


def df_port(host):
    """The host's port on its switch: FATPIPE at a node link's rate, no
    latency. It limits nothing that the node link does not; it is there only
    to weigh the routing graph (see df_edges)."""
    return ("port-" + host, None)


def df_global(i, j, k):
    lo, hi = min(i, j), max(i, j)
    return ("gl-g%d-g%d-%d" % (lo, hi, k), "UP" if i < j else "DOWN")


def df_k(geo, i, j, t):
    """The link of bundle i-j that carries traffic to switch t of group j:
    k = t mod W; when that link is down (platgen --down), the survivors
    by the same rule (alive[t mod their number])."""
    W = geo["W"]
    k = t % W
    dead = geo.get("gl_dead", {}).get((min(i, j), max(i, j)))
    if dead and k in dead:
        alive = [x for x in range(W) if x not in dead]
        k = alive[t % len(alive)]
    return k


def df_route(geo, a, b):
    """The intended (minimal) route from host index a to host index b:
    node link, L1 to the switch where the chosen global link lands, the
    global link, L1 to the destination switch, node link. The global link
    of the bundle is chosen by destination switch: k = t mod W (df_k).
    Each L1 hop takes a lane too (the source's out, or after the global link the
    destination's in); leaving from its own switch, the source's port."""
    names = geo["names"]
    ga, sa = geo["at"][a]
    gb, sb = geo["at"][b]
    route = [("nic-" + names[a], "UP")]
    if ga == gb and sa != sb:
        route += [df_lane_out(names[a], sb), df_l1(ga, sa, sb)]
    elif ga != gb:
        k = df_k(geo, ga, gb, sb)
        x, y = df_attach(geo, ga, gb, k), df_attach(geo, gb, ga, k)
        if x != sa:
            route += [df_lane_out(names[a], x), df_l1(ga, sa, x)]
        else:
            route.append(df_port(names[a]))
        route.append(df_global(ga, gb, k))
        if y != sb:
            route += [df_l1(gb, y, sb), df_lane_in(names[b], y)]
    else:
        route.append(df_port(names[a]))
    route.append(("nic-" + names[b], "DOWN"))
    return route


def build_dragonfly(a):
    G, S, H, W = a.groups, a.switches, a.hosts, a.bundle
    if G < 2:
        raise UsageError("--groups %d: a dragonfly needs at least 2 groups" % G)
    node_bw = a.node_gbps * 1e9 / 8
    f = Fabric("dragonfly", node_bw, a.latency_ns * 1e-9)
    geo = f.geometry = {"G": G, "S": S, "H": H, "W": W}
    # Slingshot: a switch's 8-16 nodes share one to three physical links
    # to each other switch of their group, so one link's worth by default.
    local = a.local if a.local is not None else 1.0
    lane = a.lane
    # "Full" global bandwidth: a group's global links together carry what
    # its S*H nodes can inject; --taper scales that.
    if a.global_bw is not None:
        bundle = a.global_bw
    else:
        bundle = a.taper * S * H / (G - 1)
    geo.update(local=local, lane=lane, bundle=bundle, taper=a.taper)
    f.notes.append("dragonfly: %d groups x %d switches x %d hosts; L1 %.4g x node, "
                   "%.4g x node a pair; global bundle of %d links, %.4g x node in all "
                   "(taper %.4g)" % (G, S, H, local, lane, W, bundle, a.taper))
    # --fill, --global-landing (platgen_shape.parse)
    geo.update(getattr(a, "shape", {}))
    names = df_place(geo)
    # an L1 connection of `local` node links is that many physical links of
    # a lane each (one at least: a narrower one is one slow link)
    l1_links = max(1, int(round(local / lane)))
    for g in range(G):
        for s in range(S):
            f.routers.append("sw-g%ds%d" % (g, s))
            for i in geo["on"][(g, s)]:
                f.hosts.append((names[i], "g%ds%d" % (g, s), "g%d" % g))
                nic = f.link("nic-" + names[i], node_bw)
                f.lane(df_port(names[i])[0], node_bw, fatpipe=True)
                f.add_set("node", names[i], [nic])
        for s in range(S):
            for t in range(s + 1, S):
                l1 = f.link(df_l1(g, s, t)[0], local * node_bw)
                f.join(l1, "g%ds%d" % (g, s), "g%ds%d" % (g, t), l1_links)
                f.add_set("switch", "g%ds%d" % (g, s), [l1])
                f.add_set("switch", "g%ds%d" % (g, t), [l1])
        # The connection is several physical links (its aggregate), and one
        # pair's traffic rides one of them: each host has its own lane out
        # to and in from every other switch of its group, part of both
        # switches' uplinks.
        for s in range(S):
            for i in geo["on"][(g, s)]:
                h = names[i]
                for t in range(S):
                    if t != s:
                        ln = [f.lane(df_lane_out(h, t)[0], lane * node_bw),
                              f.lane(df_lane_in(h, t)[0], lane * node_bw)]
                        f.add_set("switch", "g%ds%d" % (g, s), ln)
                        f.add_set("switch", "g%ds%d" % (g, t), ln)
    for i in range(G):
        for j in range(i + 1, G):
            for k in range(W):
                gl = f.link(df_global(i, j, k)[0], bundle / W * node_bw)
                x, y = df_attach(geo, i, j, k), df_attach(geo, j, i, k)
                f.join(gl, "g%ds%d" % (i, x), "g%ds%d" % (j, y), 1)
                f.add_set("bundle", "g%d-g%d" % (i, j), [gl])
                f.add_set("switch", "g%ds%d" % (i, x), [gl])
                f.add_set("switch", "g%ds%d" % (j, y), [gl])
    df_edges(f, geo, names)
    return f


def df_in(g, y, t):
    """Arrival router of switch t of group g for global links that land on
    switch y (t itself, or another switch, from which an L1 hop leads on)."""
    return "in-g%ds%d" % (g, t) if y == t else "in-g%ds%d-s%d" % (g, y, t)


def df_edges(f, geo, names):
    """The routing graph. A host goes up to its own switch router sw-*
    (through its port), or straight to another switch of its group through
    its lane out and the L1 link: there is no edge between switch routers,
    so no path can take an L1 hop without a host's lane. A global link ends
    at an arrival router of the destination switch, one per switch where the
    link lands, from which only the destination switch's hosts are reached
    (through the L1 link and the host's lane in when it landed elsewhere).

    SimGrid takes the path with the fewest links. A path could still turn
    at a switch reached by a global link by passing through one of its hosts
    (down its node link and up again); the port on the way up from a host
    makes every such detour at least one link longer than the minimal route
    (which has at most 7: node, lane, L1, global, L1, lane, node), so the
    minimal route is the only shortest path.

    Only the arrival routers that some global link reaches are made: SimGrid
    3.32's Dijkstra must reach every node of the graph from every host (an
    unreachable node with edges out corrupts its search)."""
    G, S = geo["G"], geo["S"]
    on = geo["on"]
    # a switch with no host (--fill) is never a destination: no arrival
    # router or global edge leads to it
    dests = [(j, t) for j in range(G) for t in range(S) if on[(j, t)]]
    arrivals = {(j, df_attach(geo, j, i, df_k(geo, i, j, t)), t)
                for j, t in dests for i in range(G) if i != j}
    f.routers += [df_in(*a) for a in sorted(arrivals)]
    for g in range(G):
        for s in range(S):
            sw = "sw-g%ds%d" % (g, s)
            for i in on[(g, s)]:
                h = names[i]
                f.edges.append((h, sw, [("nic-" + h, "UP"), df_port(h)]))
                f.edges.append((sw, h, [("nic-" + h, "DOWN")]))
                for t in range(S):
                    if t == s:
                        continue
                    f.edges.append((h, "sw-g%ds%d" % (g, t),
                                    [("nic-" + h, "UP"), df_lane_out(h, t), df_l1(g, s, t)]))
                for y in range(S):
                    if (g, y, s) not in arrivals:
                        continue
                    hop = [] if y == s else [df_l1(g, y, s), df_lane_in(h, y)]
                    f.edges.append((df_in(g, y, s), h, hop + [("nic-" + h, "DOWN")]))
    for i in range(G):
        for j, t in dests:
            if i == j:
                continue
            k = df_k(geo, i, j, t)
            x, y = df_attach(geo, i, j, k), df_attach(geo, j, i, k)
            f.edges.append(("sw-g%ds%d" % (i, x), df_in(j, y, t), [df_global(i, j, k)]))


# ---------------------------------------------------------------- widths
def full_rate_pairs(links, each):
    """Pairs at a node link's rate that `links` links of `each` node links
    carry at once, at least 1 (a single pair always runs, only slower)."""
    return max(1, links * int(each + 1e-9))


def widths(f):
    """The designed widths (before any --slow) as (kind, pairs) for the
    topology file: L1 connection and bundle, or a leaf's uplinks."""
    g = f.geometry
    if f.kind == "dragonfly":
        # a pair rides one lane, so an L1 connection of L node links
        # carries floor(L) pairs at full rate; a bundle's W links each
        # carry floor(their share)
        return [("local", full_rate_pairs(1, g["local"])),
                ("global", full_rate_pairs(g["W"], g["bundle"] / g["W"]))]
    return [("uplink", full_rate_pairs(g["P"], g["uplink"]))]
