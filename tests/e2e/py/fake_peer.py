# SPDX-License-Identifier: BSD-3-Clause
"""A fake control-channel peer for the e2e tests (lib.sh: fake_peer).

    fake_peer.py PORT MODE [ARGS]

Connects to 127.0.0.1:PORT and plays one part; PROTO_VERSION (from the
environment, lib.sh reads it from lib/wire/proto.h) goes in every frame.

  garbage             an HTTP request and 2 KiB of noise, not a frame;
  hello PROG VERSION  a well-formed HELLO from PROG at VERSION;
    both then wait (<= 12 s) for the server to close the connection and
    print what came back.
  probe               connect, close at once;
  trickle             the start of a HELLO, one byte every 2 s;
  beats               heartbeat frames only, one every 0.5 s;
    these three stop after 14 s at most, or when the server drops them.
"""
import os
import socket
import struct
import sys
import time

MAGIC = 0x43584447
MSG_HELLO, MSG_HEARTBEAT = 1, 7


def frame(ver, mtype, payload_len):
    return struct.pack(">IHHI", MAGIC, ver, mtype, payload_len)


def text(s):
    b = s.encode()
    return struct.pack(">H", len(b)) + b


def send_then_wait(s, data):
    try:
        s.sendall(data)
    except OSError as e:
        print(f"send: {e}")
    s.settimeout(12)
    got = b""
    end = time.time() + 12
    try:
        while time.time() < end:
            b = s.recv(4096)
            if not b:
                break
            got += b
    except OSError as e:
        print(f"recv: {e}")
    print(f"server closed; {len(got)} bytes back: {got[12:200]!r}")


def stray(s, kind, ver):
    if kind == "probe":
        s.close()
        return
    hb = frame(ver, MSG_HEARTBEAT, 0)
    hello = frame(ver, MSG_HELLO, 40)  # the start of a HELLO
    end = time.time() + 14
    try:
        for i in range(1000):
            if time.time() >= end:
                break
            s.sendall(hello[i:i + 1] if kind == "trickle" else hb)
            time.sleep(2 if kind == "trickle" else 0.5)
    except OSError as e:
        print(f"server dropped us: {e}")


def main(argv):
    port, kind = int(argv[1]), argv[2]
    ver = int(os.environ["PROTO_VERSION"])
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    if kind == "garbage":
        send_then_wait(s, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n" + os.urandom(2048))
    elif kind == "hello":
        payload = text(argv[3]) + text(argv[4])
        send_then_wait(s, frame(ver, MSG_HELLO, len(payload)) + payload)
    elif kind in ("probe", "trickle", "beats"):
        stray(s, kind, ver)
    else:
        sys.exit(f"fake_peer.py: unknown mode {kind!r}")


if __name__ == "__main__":
    main(sys.argv)
