# SPDX-License-Identifier: BSD-3-Clause
"""Validates every JSON document under DIR that says it is one of ours
(it carries schema_version) against the schema of its kind, in
SCHEMA_DIR/KIND.schema.json (docs/schema/). lib.sh's finish runs it on
each e2e test's temp dir, so every document a test kept is checked.

    json_docs.py DIR SCHEMA_DIR

Last line: the verdict. Exit 0: all valid (or none found: says so);
1: a document is invalid; 3: python3-jsonschema is missing.
"""
import json, os, sys

try:
    import jsonschema
except ImportError:
    print("not validated: python3-jsonschema is not installed (scripts/deps.sh)")
    sys.exit(3)

MAX = 64 << 20  # larger files are the tests' bulk data, not documents
top, schema_dir = sys.argv[1], sys.argv[2]
schemas, counts, bad = {}, {}, []


def validator(kind):
    if kind not in schemas:
        path = os.path.join(schema_dir, "%s.schema.json" % kind)
        with open(path) as f:
            s = json.load(f)
        jsonschema.Draft202012Validator.check_schema(s)
        schemas[kind] = jsonschema.Draft202012Validator(s)
    return schemas[kind]


def document(path):
    """The parsed object if PATH holds one JSON object, else None."""
    try:
        if not os.path.isfile(path) or os.path.islink(path) or \
                os.path.getsize(path) > MAX:
            return None
        with open(path, "rb") as f:
            head = f.read(64).lstrip()
            if not head.startswith(b"{"):
                return None
            d = json.loads(head + f.read())
    except (OSError, ValueError):
        return None
    return d if isinstance(d, dict) else None


for root, dirs, files in os.walk(top):
    for name in sorted(files):
        path = os.path.join(root, name)
        d = document(path)
        if d is None or "schema_version" not in d:
            continue
        kind = d.get("kind")
        if kind not in ("pair", "sweep", "congestion"):
            bad.append("%s: unknown kind %r" % (path, kind))
            continue
        errs = sorted(validator(kind).iter_errors(d), key=lambda e: list(e.path))
        for e in errs[:3]:
            bad.append("%s: %s at /%s" % (os.path.relpath(path, top), e.message,
                                          "/".join(str(p) for p in e.path)))
        if not errs:
            counts[kind] = counts.get(kind, 0) + 1

if bad:
    for b in bad:
        print(b)
    print("%d JSON document problem(s): %s" % (len(bad), bad[0]))
    sys.exit(1)
n = sum(counts.values())
print("%d JSON document(s) match their schema%s" % (n, (" (" + ", ".join(
    "%s %d" % kv for kv in sorted(counts.items())) + ")") if n else ""))
