# SPDX-License-Identifier: BSD-3-Clause
"""Prints d[k1][k2]... of a JSON file (lib.sh: json_get).

    json_get.py FILE KEY      KEY: a dotted path, list indexes as numbers
"""
import json, sys
d = json.load(open(sys.argv[1]))
for k in sys.argv[2].split('.') if sys.argv[2] else []:
    d = d[int(k)] if isinstance(d, list) else d[k]
print(json.dumps(d) if isinstance(d, (dict, list)) else d)
