# SPDX-License-Identifier: BSD-3-Clause
"""Exit 0 if a TCP connect to ADDR port 9 is answered, refused counts
(test_netns.sh: the veth pair is up).

    tcp_reach.py ADDR
"""
import socket, sys
try:
    socket.create_connection((sys.argv[1], 9), timeout=0.5).close()
except ConnectionRefusedError:
    pass
except OSError:
    sys.exit(1)
