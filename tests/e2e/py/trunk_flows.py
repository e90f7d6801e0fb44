# SPDX-License-Identifier: BSD-3-Clause
"""Concurrent TCP flows between network namespaces, and what they carry
together (test_sweep_capacity.sh: the shaped trunk measured without the
sweep, an outside truth).

    trunk_flows.py run PREFIX SECS LO HI LINK SRC:DST:ADDR ...

Starts a receiver in namespace PREFIX<DST> (on ADDR) and a sender in
PREFIX<SRC> per flow, all sending for SECS. The aggregate is the bytes all
flows received in the window where every flow ran (slow start and the
bucket's first burst left out) over its length, in MB/s. Above HI, or a
flow above LINK: the shaping does not hold (exit 1). Below LO: this host
was too busy to fill the trunk (exit 3; load only lowers a rate).
    trunk_flows.py recv ADDR PORT SECS   /   send ADDR PORT SECS
are the two ends (run inside a namespace by "run")."""
import json
import socket
import subprocess
import sys
import time

CHUNK = 65536
SKIP = 0.5  # s: slow start and the token bucket's first burst


def recv(addr, port, secs):
    ls = socket.socket()
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind((addr, port))
    ls.listen(1)
    ls.settimeout(secs + 10)  # every wait bounded
    print("ready", flush=True)
    s, _ = ls.accept()
    s.settimeout(secs + 10)
    marks, total = [], 0
    while True:
        b = s.recv(1 << 20)
        if not b:
            break
        total += len(b)
        marks.append((time.monotonic(), total))
    print(json.dumps(marks[:: max(1, len(marks) // 2000)] + marks[-1:]))


def send(addr, port, secs):
    s = socket.create_connection((addr, port), timeout=10)
    buf, end = b"\0" * CHUNK, time.monotonic() + secs
    while time.monotonic() < end:
        s.sendall(buf)
    s.close()


def bytes_at(marks, t):
    last = 0
    for tm, n in marks:
        if tm > t:
            break
        last = n
    return last


def run(prefix, secs, lo, hi, link, flows):
    me, procs, port = [sys.executable, __file__], [], 15201
    for i, f in enumerate(flows):
        src, dst, addr = f.split(":")
        r = subprocess.Popen(["ip", "netns", "exec", prefix + dst] + me +
                             ["recv", addr, str(port + i), str(secs)],
                             stdout=subprocess.PIPE, text=True)
        if r.stdout.readline().strip() != "ready":
            sys.exit("receiver %s did not start" % f)
        procs.append((r, src, addr, port + i))
    senders = [subprocess.Popen(["ip", "netns", "exec", prefix + src] + me +
                                ["send", addr, str(p), str(secs)])
               for _, src, addr, p in procs]
    marks = []
    for (r, *_), s in zip(procs, senders):
        out, _ = r.communicate(timeout=secs + 20)
        s.wait(timeout=20)
        marks.append([tuple(m) for m in json.loads(out)])
    t0 = max(m[0][0] for m in marks) + SKIP
    t1 = min(m[-1][0] for m in marks)
    if t1 - t0 < 0.5:
        sys.exit("the flows overlapped %.2f s only" % (t1 - t0))
    each = [(bytes_at(m, t1) - bytes_at(m, t0)) / (t1 - t0) / 1e6 for m in marks]
    agg = sum(each)
    print("%d flows: %.1f MB/s together (%.1f to %.1f), each %s over %.1f s"
          % (len(flows), agg, lo, hi, " ".join("%.1f" % e for e in each), t1 - t0))
    if agg > hi or max(each) > link:
        sys.exit("above the shaped rates")
    if agg < lo:
        print("below %.1f MB/s: this host too busy to fill the trunk" % lo)
        sys.exit(3)


if __name__ == "__main__":
    a = sys.argv
    if a[1] == "recv":
        recv(a[2], int(a[3]), float(a[4]))
    elif a[1] == "send":
        send(a[2], int(a[3]), float(a[4]))
    else:
        run(a[2], float(a[3]), float(a[4]), float(a[5]), float(a[6]), a[7:])
