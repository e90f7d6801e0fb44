# SPDX-License-Identifier: BSD-3-Clause
"""A "DNS server" on 127.0.0.1:53 (UDP and TCP) that reads queries and
never answers (test_robust.sh: a name lookup must end with the connect
timeout, not the resolver's retries). Runs until killed.

    mute_dns.py
"""
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1", 53))
t = socket.socket(); t.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
t.bind(("127.0.0.1", 53)); t.listen(5)
while True:
    s.recv(4096)
