#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# test-class: timing (real sweeps over namespaces, one rank per NIC)
# cxi_sweep, one rank per NIC: two network namespaces stand for two nodes
# (CXD_TEST_NETNS with CXD_TEST_NETNS_PER=2: ranks 0-1 in the first,
# 2-3 in the second), each with two interfaces, nicA on one bridge and
# nicB on another; a veth joins the bridges into one fabric.
#   1. -d auto: local rank 0 takes nicA, local rank 1 nicB (the provider's
#      order); every link measured, the same-node ones too; the kernel's
#      counters show both NICs of each node and the inter-bridge link
#      carried traffic.
#   2. -d nicA,nicB: the list, by local rank, against the provider order.
#   4. --max-pairs 2 with 6 ranks: never more than 2 pairs at once, with
#      no central release (each pair's span logged by the test copy).
#   3. Bad input, exit 2 and one message from rank 0 naming rank and host:
#      -d auto with 3 ranks on a 2-NIC node, a list of the wrong length,
#      ranks started with different options.
# Skipped (77) without MPI or cxi_sweep; parts 1-3a/b need root and ip.
#   bash tests/e2e/test_sweep_nics.sh BUILD_DIR
. "$(dirname "$0")/lib.sh" "$@"
. "$(dirname "$0")/sweep_lib.sh"
# TBIN (the test copy: CXD_TEST_NETNS_PER, CXD_TEST_PAIR_LOG), PY, MPIRUN.
sweep_setup
SMALL=(--provider tcp -n 2 -l 4 --lat-iters 20 --max-pairs 1)

section "ranks that disagree on options"
run_capture disagree 60 "${MPIRUN[@]}" -np 2 "$TBIN" "${SMALL[@]}" : \
	-np 1 "$TBIN" "${SMALL[@]}" -D 3
expect_rc 2 "$RC" "a rank with -D 3 more"
check "rank 0 names rank 2 and its options, once" test "$(grep -c \
	'rank 2 (.*): started with other options than rank 0 (".* -D 3")' \
	"$ERR")" -eq 1

section "pairs at once, with no central release"
# --max-pairs 2 with 6 ranks (circle rounds of 3 pairs) and 7 (3 pairs,
# one rank sitting out): the slots must hold the third pair back, and
# each rank finds its own steps and its slot's neighbours without the
# whole schedule. Each pair's lower rank logs its span (monotonic clock,
# CXD_TEST_PAIR_LOG): never more than 2 at once, every pair run. (With
# the slots off, 3 ran at once: checked by hand.)
slots() { # RANKS
	local n=$1 want=$(($1 * ($1 - 1) / 2))
	rm -f "$TMPD/spans"
	run_capture "slots-$n" 120 env CXD_TEST_PAIR_LOG="$TMPD/spans" "${MPIRUN[@]}" \
		-x CXD_TEST_PAIR_LOG -np "$n" "$TBIN" --provider shm -n 2 -l 4 \
		--lat-iters 20 --max-pairs 2
	if [ "$RC" = 0 ] || [ "$RC" = 3 ] || [ "$RC" = 4 ]; then pass "$n ranks, --max-pairs 2: exit $RC"; else
		fail "$n ranks, --max-pairs 2: exit $RC"; show "$ERR"; fi
	out=$("$PY" -c 'import sys
ev = []
pairs = set()
for line in open(sys.argv[1]):
    a, b, t0, t1 = map(int, line.split())
    pairs.add((a, b))
    ev += [(t0, 1), (t1, -1)]
live = most = 0
for t, d in sorted(ev, key=lambda e: (e[0], e[1])):
    live += d
    most = max(most, live)
print(len(pairs), sum(1 for e in ev if e[1] > 0), most)' "$TMPD/spans" 2>&1)
	read -r npairs nspans most <<<"$out"
	# (more spans than pairs when outliers were retested)
	check "$n ranks: all $want pairs ran (pairs $npairs, spans $nspans)" \
		test "$npairs" = "$want" -a "$nspans" -ge "$want"
	check "$n ranks: at most 2 pairs at once (most: $most)" test "$most" -le 2
}
slots 6
slots 7

if ! fabric_ok ip; then
	skip_part "the NIC parts: they need root and ip"
	finish
fi
P=cxnic$$
two_bridges "br${P}A" "br${P}B" "${P}AB" "${P}BA" ||
	{ skip_part "the NIC parts: no bridge: $(cat "$TMPD/br.err")"; finish; }
# Node i: nicA 169.254.79.(10+i), nicB .(20+i), one subnet; traffic from
# nicB's address leaves by nicB (a rule), and each NIC answers ARP only
# for its own address, so a link's bytes cross the NIC it names.
for i in 0 1; do
	ns=${P}n$i
	ip netns add "$ns"
	on_exit "ip netns del $ns"
	# lo carries the same-node links; -d auto must pass it over
	ip -n "$ns" link set lo up
	ip netns exec "$ns" sysctl -qw net.ipv4.conf.all.arp_ignore=1 \
		net.ipv4.conf.all.arp_announce=2
	for nic in A B; do
		ip link add "${P}$nic$i" type veth peer name "nic$nic" netns "$ns"
		ip link set "${P}$nic$i" master "br$P$nic" up
		ip -n "$ns" link set "nic$nic" up
	done
	ip -n "$ns" addr add "169.254.79.$((10 + i))/24" dev nicA
	ip -n "$ns" addr add "169.254.79.$((20 + i))/24" dev nicB
	ip -n "$ns" rule add from "169.254.79.$((20 + i))" table 100
	ip -n "$ns" route add 169.254.79.0/24 dev nicB \
		src "169.254.79.$((20 + i))" table 100
done
NS=(env CXD_TEST_NETNS="${P}n" CXD_TEST_NETNS_PER=2)
XNS=(-x CXD_TEST_NETNS -x CXD_TEST_NETNS_PER)
# tx bytes: NS DEV
tx() { ip netns exec "$1" cat "/sys/class/net/$2/statistics/tx_bytes"; }

section "-d auto: one rank per NIC"
declare -A before
for i in 0 1; do for nic in A B; do before[$i$nic]=$(tx "${P}n$i" "nic$nic"); done; done
cross0=$(cat "/sys/class/net/${P}AB/statistics/tx_bytes")
t0=$(now)
run_capture auto 120 "${NS[@]}" "${MPIRUN[@]}" "${XNS[@]}" -np 4 "$TBIN" \
	"${SMALL[@]}" -d auto --json "$TMPD/auto.json"
note "4 ranks, 2 nodes, -d auto: $(elapsed_since "$t0") s"
if [ "$RC" = 0 ] || [ "$RC" = 3 ] || [ "$RC" = 4 ]; then pass "-d auto: exit $RC"; else
	fail "-d auto: exit $RC"; show "$ERR"; fi
if out=$("$PY" "$E2E_PY/sweep_matrices.py" "$TMPD/auto.json" 4); then
	pass "4x4 matrices complete: same-node links measured too"
else
	fail "$out"
fi
# Who took which NIC: the address each rank published. The provider's
# order (here nicB before nicA, whatever the creation order) decides.
got=$("$PY" -c 'import json, re, sys
d = json.load(open(sys.argv[1]))
print(" ".join("%s/%s" % (r["host"], re.search(r"\d+\.\d+\.\d+\.\d+",
      r["address"]).group(0)) for r in d["ranks"]))' "$TMPD/auto.json" 2>&1)
want=$(for i in 0 1; do
	for dev in $(ip netns exec "${P}n$i" fi_info -p tcp 2>/dev/null |
		awk '$1 == "domain:" && $2 ~ /^nic/ && !seen[$2]++ {print $2}'); do
		[ "$dev" = nicA ] && printf '%s ' "${P}n$i/169.254.79.$((10 + i))"
		[ "$dev" = nicB ] && printf '%s ' "${P}n$i/169.254.79.$((20 + i))"
	done
done)
check "each local rank on the NIC at its place in fi_info's order, each node named ($got)" \
	test "$got" = "${want% }"
for i in 0 1; do for nic in A B; do
	d=$(($(tx "${P}n$i" "nic$nic") - before[$i$nic]))
	check "node $i nic$nic sent $d bytes (> 100 kB)" test "$d" -gt 100000
done; done
d=$(($(cat "/sys/class/net/${P}AB/statistics/tx_bytes") - cross0))
check "the bridges' link carried $d bytes (nicA to nicB links, > 100 kB)" \
	test "$d" -gt 100000
show "$OUT"

section "-d list: one device per local rank"
run_capture list 120 "${NS[@]}" "${MPIRUN[@]}" "${XNS[@]}" -np 4 "$TBIN" \
	"${SMALL[@]}" -d nicA,nicB --json "$TMPD/list.json"
if [ "$RC" = 0 ] || [ "$RC" = 3 ] || [ "$RC" = 4 ]; then pass "-d nicA,nicB: exit $RC"; else
	fail "-d nicA,nicB: exit $RC"; show "$ERR"; fi
got=$("$PY" -c 'import json, re, sys
d = json.load(open(sys.argv[1]))
print(" ".join(re.search(r"\d+\.\d+\.\d+\.\d+", r["address"]).group(0)
      for r in d["ranks"]))' "$TMPD/list.json" 2>&1)
check "-d nicA,nicB (against the provider order): local rank 0 on nicA, 1 on nicB ($got)" \
	test "$got" = "169.254.79.10 169.254.79.20 169.254.79.11 169.254.79.21"

section "bad device choices"
run_capture few 60 env CXD_TEST_NETNS="${P}n" CXD_TEST_NETNS_PER=3 \
	"${MPIRUN[@]}" "${XNS[@]}" -np 3 "$TBIN" "${SMALL[@]}" -d auto
expect_rc 2 "$RC" "-d auto, 3 ranks on a node with 2 NICs"
check "rank 0 names rank 2, its node and the 2 devices, once" test "$(grep -c \
	"rank 2 (${P}n0): -d auto: this is local rank 2 of 3 .* lists 2 devices here (nic[AB], nic[AB])" \
	"$ERR")" -eq 1
run_capture long 60 "${NS[@]}" "${MPIRUN[@]}" "${XNS[@]}" -np 4 "$TBIN" \
	"${SMALL[@]}" -d nicA,nicB,nicA
expect_rc 2 "$RC" "-d with 3 devices, 2 ranks a node"
check "rank 0 names rank 0 and the count, once" test "$(grep -c \
	"rank 0 (${P}n0): -d lists 3 devices but this host runs 2 ranks" \
	"$ERR")" -eq 1
finish
