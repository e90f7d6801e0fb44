# SPDX-License-Identifier: BSD-3-Clause
"""platgen.py's fabrics (docs/simulation.md): the Fabric model of a
platform, and the dragonfly and the two-level fat tree built into one, with
each shape's intended route between two hosts. platgen.py parses the
command line and writes the files."""


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


def host_name(i, n):
    return "nid%0*d" % (max(4, len(str(n - 1))), i)


# ---------------------------------------------------------------- dragonfly
def df_peer_index(i, j):
    """Where group j sits among group i's G-1 peers."""
    return j if j < i else j - 1


def df_attach(geo, i, j, k):
    """The switch of group i where link k of the bundle i-j lands: a group's
    (G-1)*W global ports are dealt round-robin over its switches."""
    return (df_peer_index(i, j) * geo["W"] + k) % geo["S"]


def df_names(geo):
    g, s, h = geo["G"], geo["S"], geo["H"]
    n = g * s * h
    return [host_name(i, n) for i in range(n)]


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
    S, H = geo["S"], geo["H"]
    names = geo["names"]
    ga, sa = divmod(a // H, S)
    gb, sb = divmod(b // H, S)
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
    names = geo["names"] = df_names(geo)
    for g in range(G):
        for s in range(S):
            f.routers.append("sw-g%ds%d" % (g, s))
            for n in range(H):
                i = (g * S + s) * H + n
                f.hosts.append((names[i], "g%ds%d" % (g, s), "g%d" % g))
                nic = f.link("nic-" + names[i], node_bw)
                f.lane(df_port(names[i])[0], node_bw, fatpipe=True)
                f.add_set("node", names[i], [nic])
        for s in range(S):
            for t in range(s + 1, S):
                l1 = f.link(df_l1(g, s, t)[0], local * node_bw)
                f.add_set("switch", "g%ds%d" % (g, s), [l1])
                f.add_set("switch", "g%ds%d" % (g, t), [l1])
        # The connection is several physical links (its aggregate), and one
        # pair's traffic rides one of them: each host has its own lane out
        # to and in from every other switch of its group, part of both
        # switches' uplinks.
        for s in range(S):
            for n in range(H):
                h = names[(g * S + s) * H + n]
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
                f.add_set("bundle", "g%d-g%d" % (i, j), [gl])
                f.add_set("switch", "g%ds%d" % (i, df_attach(geo, i, j, k)), [gl])
                f.add_set("switch", "g%ds%d" % (j, df_attach(geo, j, i, k)), [gl])
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
    G, S, H = geo["G"], geo["S"], geo["H"]
    arrivals = {(j, df_attach(geo, j, i, df_k(geo, i, j, t)), t)
                for i in range(G) for j in range(G) if i != j for t in range(S)}
    f.routers += [df_in(*a) for a in sorted(arrivals)]
    for g in range(G):
        for s in range(S):
            sw = "sw-g%ds%d" % (g, s)
            for n in range(H):
                h = names[(g * S + s) * H + n]
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
        for j in range(G):
            if i == j:
                continue
            for t in range(S):
                k = df_k(geo, i, j, t)
                x, y = df_attach(geo, i, j, k), df_attach(geo, j, i, k)
                f.edges.append(("sw-g%ds%d" % (i, x), df_in(j, y, t), [df_global(i, j, k)]))


# ---------------------------------------------------------------- fat tree
def ft_up(leaf, spine):
    return "up-leaf%d-spine%d" % (leaf, spine)


def ft_alive(geo, leaf):
    """The spines that leaf's uplinks still reach (platgen --down)."""
    dead = geo.get("up_dead", {}).get(leaf, ())
    return [k for k in range(geo["P"]) if k not in dead]


def ft_home(geo, b):
    """The spine through which host b is reached: k = b mod P (d-mod-k);
    when its leaf's uplink to that spine is down, its leaf's surviving
    spines by the same rule (alive[b mod their number])."""
    k = b % geo["P"]
    if k in geo.get("up_dead", {}).get(b // geo["H"], ()):
        alive = ft_alive(geo, b // geo["H"])
        k = alive[b % len(alive)]
    return k


def ft_spine(geo, la, b):
    """The spine from leaf la to host b: b's home spine, or, when la's own
    uplink to it is down, the spines both leaves still reach by the same
    rule (platgen --down checks that there is one)."""
    k = ft_home(geo, b)
    dead = geo.get("up_dead", {})
    if k in dead.get(la, ()):
        both = [x for x in ft_alive(geo, la) if x not in dead.get(b // geo["H"], ())]
        k = both[b % len(both)]
    return k


def ft_route(geo, a, b):
    """Intended route: node link; if the leaves differ, the uplink to spine
    k = b mod P (d-mod-k: by destination; ft_spine when links are down),
    down from it to b's leaf."""
    H = geo["H"]
    names = geo["names"]
    route = [("nic-" + names[a], "UP")]
    la, lb = a // H, b // H
    if la != lb:
        k = ft_spine(geo, la, b)
        route += [(ft_up(la, k), "UP"), (ft_up(lb, k), "DOWN")]
    route.append(("nic-" + names[b], "DOWN"))
    return route


def build_fattree(a):
    L, H, P = a.leaves, a.hosts, a.spines
    node_bw = a.node_gbps * 1e9 / 8
    f = Fabric("fattree", node_bw, a.latency_ns * 1e-9)
    # "Full": a leaf's P uplinks together carry what its H hosts inject.
    up = a.uplink if a.uplink is not None else a.taper * H / P
    geo = f.geometry = {"L": L, "H": H, "P": P, "uplink": up, "taper": a.taper}
    f.notes.append("fat tree: %d leaves x %d hosts, %d spines; each uplink %.4g x node "
                   "(taper %.4g)" % (L, H, P, up, a.taper))
    n = L * H
    names = geo["names"] = [host_name(i, n) for i in range(n)]
    f.routers += ["spine%d" % k for k in range(P)]
    for leaf in range(L):
        sw = "leaf%d" % leaf
        f.routers.append("sw-" + sw)
        for j in range(H):
            i = leaf * H + j
            f.hosts.append((names[i], sw, None))
            f.add_set("node", names[i], [f.link("nic-" + names[i], node_bw)])
        for k in range(P):
            u = f.link(ft_up(leaf, k), up * node_bw)
            f.add_set("switch", sw, [u])
            f.add_set("spine", "spine%d" % k, [u])
    ft_edges(f, geo, names)
    return f


def ft_edges(f, geo, names):
    """The routing graph: hosts to and from their leaf, a leaf up to each
    spine its uplinks reach, and from a spine down to the hosts whose home
    it is (ft_home), so that the shortest path is the d-mod-k one. A leaf
    whose uplink to a host's home spine is down reaches that host through
    a router of its own per other spine (ftx-leafL-K, made only where
    used): no other leaf leads there, so that path is the only shortest
    one for that leaf alone."""
    L, H, P = geo["L"], geo["H"], geo["P"]
    dead = geo.get("up_dead", {})
    for leaf in range(L):
        sw = "sw-leaf%d" % leaf
        for j in range(H):
            h = names[leaf * H + j]
            f.edges.append((h, sw, [("nic-" + h, "UP")]))
            f.edges.append((sw, h, [("nic-" + h, "DOWN")]))
        for k in ft_alive(geo, leaf):
            f.edges.append((sw, "spine%d" % k, [(ft_up(leaf, k), "UP")]))
    for i in range(L * H):
        k = ft_home(geo, i)
        f.edges.append(("spine%d" % k, names[i],
                        [(ft_up(i // H, k), "DOWN"), ("nic-" + names[i], "DOWN")]))
    detours = set()
    for la in sorted(dead):
        for i in range(L * H):
            k = ft_spine(geo, la, i)
            if i // H == la or k == ft_home(geo, i):
                continue
            r = "ftx-leaf%d-%d" % (la, k)
            if r not in detours:
                detours.add(r)
                f.routers.append(r)
                f.edges.append(("sw-leaf%d" % la, r, [(ft_up(la, k), "UP")]))
            f.edges.append((r, names[i], [(ft_up(i // H, k), "DOWN"),
                                          ("nic-" + names[i], "DOWN")]))


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
