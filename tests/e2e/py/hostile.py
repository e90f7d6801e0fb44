# SPDX-License-Identifier: BSD-3-Clause
"""The table of hostile names (tests/hostile_names.txt) as Python data,
for the checkers of test_hostile_names.sh and test_hostile_sweep.sh.

    names()          [(id, fate, bytes)], fate "carry" or "refuse"
    text(b)          a carried name as text
    check_main(...)  the checkers' main: the verdict last
"""
import os
import re

TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                     "hostile_names.txt")
ESC = re.compile(rb"\\(\\|t|n|r|x[0-9a-fA-F]{2}|\*[0-9]+;)")
NIC_MAX = 63  # the room of a NIC name (CXD_NAME_LEN - 1); others 255


def unescape(raw):
    out = bytearray()
    pos = 0
    for m in ESC.finditer(raw):
        out += raw[pos:m.start()]
        e = m.group(1)
        if e.startswith(b"x"):
            out.append(int(e[1:], 16))
        elif e.startswith(b"*"):
            out += out[-1:] * (int(e[1:-1]) - 1)
        else:
            out += {b"\\": b"\\", b"t": b"\t", b"n": b"\n", b"r": b"\r"}[e]
        pos = m.end()
    return bytes(out + raw[pos:])


def names():
    rows = []
    with open(TABLE, "rb") as f:
        for line in f:
            line = line.rstrip(b"\n")
            if not line or line.startswith(b"#"):
                continue
            ident, fate, raw = line.split(b"\t", 2)
            rows.append((ident.decode(), fate.decode(), unescape(raw)))
    return rows


def text(b):
    """A carried name as text (carried names are UTF-8)."""
    return b.decode("utf-8")


def check_main(commands, argv):
    """A checker's main: commands[argv[0]](*argv[1:]) gives (problems,
    what passed); the last line printed is the verdict, exit 1 on a
    problem."""
    bad, ok = commands[argv[0]](*argv[1:])
    for b in bad[:20]:
        print(b)
    print(("FAIL: %d problems: %s" % (len(bad), bad[0])) if bad else ok)
    return 1 if bad else 0
