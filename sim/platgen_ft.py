# SPDX-License-Identifier: BSD-3-Clause
"""platgen.py's two-level fat tree (docs/simulation.md): leaves of hosts,
an uplink from every leaf to every spine, and the intended route between
two hosts: d-mod-k by destination, or a fixed hash of the pair
(--ft-routes hashed). The Fabric model is platgen_topo.py's."""

from platgen_topo import Fabric, host_name


def ft_up(leaf, spine):
    return "up-leaf%d-spine%d" % (leaf, spine)


def ft_alive(geo, leaf):
    """The spines that leaf's uplinks still reach (platgen --down)."""
    dead = geo.get("up_dead", {}).get(leaf, ())
    return [k for k in range(geo["P"]) if k not in dead]


def ft_leaf(geo, b):
    """The leaf of host b."""
    return geo["at"][b]


def ft_home(geo, b):
    """The spine through which host b is reached: k = b mod P (d-mod-k);
    when its leaf's uplink to that spine is down, its leaf's surviving
    spines by the same rule (alive[b mod their number])."""
    k = b % geo["P"]
    if k in geo.get("up_dead", {}).get(ft_leaf(geo, b), ()):
        alive = ft_alive(geo, ft_leaf(geo, b))
        k = alive[b % len(alive)]
    return k


def ft_spine(geo, la, b):
    """The spine from leaf la to host b: b's home spine, or, when la's own
    uplink to it is down, the spines both leaves still reach by the same
    rule (platgen --down checks that there is one)."""
    k = ft_home(geo, b)
    dead = geo.get("up_dead", {})
    if k in dead.get(la, ()):
        both = [x for x in ft_alive(geo, la) if x not in dead.get(ft_leaf(geo, b), ())]
        k = both[b % len(both)]
    return k


def pair_hash(a, b):
    """A fixed hash of the ordered pair of host indices (a few rounds of
    multiply and fold on 32 bits): what a switch's static flow hash does,
    spreading pairs over spines regardless of their destination."""
    x = (a * 0x9E3779B1 + (b + 1) * 0x85EBCA77) & 0xFFFFFFFF
    for m in (0x2C1B3C6D, 0x297A2D39):
        x ^= x >> 15
        x = (x * m) & 0xFFFFFFFF
    return x ^ (x >> 16)


def ft_pair_spine(geo, a, b):
    """The spine of the pair a -> b on different leaves: by destination
    (ft_spine, d-mod-k), or with --ft-routes hashed the hash of the pair
    over the spines both leaves reach."""
    la, lb = ft_leaf(geo, a), ft_leaf(geo, b)
    if geo.get("routes") != "hashed":
        return ft_spine(geo, la, b)
    dead = geo.get("up_dead", {})
    both = [k for k in ft_alive(geo, la) if k not in dead.get(lb, ())]
    return both[pair_hash(a, b) % len(both)]


def ft_route(geo, a, b):
    """Intended route: node link; if the leaves differ, the uplink to spine
    k = b mod P (d-mod-k: by destination; ft_spine when links are down;
    the pair's hash with --ft-routes hashed), down from it to b's leaf."""
    names = geo["names"]
    route = [("nic-" + names[a], "UP")]
    la, lb = ft_leaf(geo, a), ft_leaf(geo, b)
    if la != lb:
        k = ft_pair_spine(geo, a, b)
        route += [(ft_up(la, k), "UP"), (ft_up(lb, k), "DOWN")]
    route.append(("nic-" + names[b], "DOWN"))
    return route


def ft_place(geo):
    """Number the hosts leaf by leaf (H each, or what --fill says):
    geo["at"][i] is host i's leaf, geo["on"][leaf] its hosts."""
    fill = geo.get("fill", {})
    geo["at"], geo["on"] = [], {}
    for leaf in range(geo["L"]):
        n = fill.get(leaf, geo["H"])
        geo["on"][leaf] = list(range(len(geo["at"]), len(geo["at"]) + n))
        geo["at"] += [leaf] * n
    n = len(geo["at"])
    geo["names"] = [host_name(i, n) for i in range(n)]
    return geo["names"]


def build_fattree(a):
    L, H, P = a.leaves, a.hosts, a.spines
    node_bw = a.node_gbps * 1e9 / 8
    f = Fabric("fattree", node_bw, a.latency_ns * 1e-9)
    # "Full": a leaf's P uplinks together carry what its H hosts inject.
    up = a.uplink if a.uplink is not None else a.taper * H / P
    geo = f.geometry = {"L": L, "H": H, "P": P, "uplink": up, "taper": a.taper}
    f.notes.append("fat tree: %d leaves x %d hosts, %d spines; each uplink %.4g x node "
                   "(taper %.4g)" % (L, H, P, up, a.taper))
    # --fill, --ft-routes (platgen_shape.parse)
    geo.update(getattr(a, "shape", {}))
    names = ft_place(geo)
    # an uplink of X node links is X physical links (at least one)
    up_links = max(1, int(round(up)))
    if geo.get("routes") != "hashed":
        f.routers += ["spine%d" % k for k in range(P)]
    for leaf in range(L):
        sw = "leaf%d" % leaf
        f.routers.append("sw-" + sw)
        for i in geo["on"][leaf]:
            f.hosts.append((names[i], sw, None))
            f.add_set("node", names[i], [f.link("nic-" + names[i], node_bw)])
        for k in range(P):
            u = f.link(ft_up(leaf, k), up * node_bw)
            f.join(u, sw, "spine%d" % k, up_links)
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
    one for that leaf alone. Hashed routes: ft_hashed_edges."""
    L = geo["L"]
    dead = geo.get("up_dead", {})
    for leaf in range(L):
        sw = "sw-leaf%d" % leaf
        for i in geo["on"][leaf]:
            h = names[i]
            f.edges.append((h, sw, [("nic-" + h, "UP")]))
            f.edges.append((sw, h, [("nic-" + h, "DOWN")]))
        if geo.get("routes") != "hashed":
            for k in ft_alive(geo, leaf):
                f.edges.append((sw, "spine%d" % k, [(ft_up(leaf, k), "UP")]))
    if geo.get("routes") == "hashed":
        ft_hashed_edges(f, geo, names)
        return
    n = len(names)
    for i in range(n):
        k = ft_home(geo, i)
        f.edges.append(("spine%d" % k, names[i],
                        [(ft_up(ft_leaf(geo, i), k), "DOWN"), ("nic-" + names[i], "DOWN")]))
    detours = set()
    for la in sorted(dead):
        for i in range(n):
            k = ft_spine(geo, la, i)
            if ft_leaf(geo, i) == la or k == ft_home(geo, i):
                continue
            r = "ftx-leaf%d-%d" % (la, k)
            if r not in detours:
                detours.add(r)
                f.routers.append(r)
                f.edges.append(("sw-leaf%d" % la, r, [(ft_up(la, k), "UP")]))
            f.edges.append((r, names[i], [(ft_up(ft_leaf(geo, i), k), "DOWN"),
                                          ("nic-" + names[i], "DOWN")]))


def ft_hashed_edges(f, geo, names):
    """Hashed routes (--ft-routes hashed): the spine depends on the source
    too, so each host has a router of its own per spine it sends through
    (fth-HOST-K, at spine K): up to it over the host's node link and its
    leaf's uplink, down from it to each host whose pair hashes to K. That
    path has 4 links; any other way to the host passes through a third
    host and has at least 6, so SimGrid's shortest path is the hashed one.
    Every such router is reached from every host (through its own host)."""
    n = len(names)
    down = {}
    for a in range(n):
        for b in range(n):
            if ft_leaf(geo, a) != ft_leaf(geo, b):
                down.setdefault((a, ft_pair_spine(geo, a, b)), []).append(b)
    for (a, k), dests in sorted(down.items()):
        r = "fth-%s-%d" % (names[a], k)
        f.routers.append(r)
        f.edges.append((names[a], r, [("nic-" + names[a], "UP"),
                                      (ft_up(ft_leaf(geo, a), k), "UP")]))
        for b in dests:
            f.edges.append((r, names[b], [(ft_up(ft_leaf(geo, b), k), "DOWN"),
                                          ("nic-" + names[b], "DOWN")]))
