# SPDX-License-Identifier: BSD-3-Clause
"""The SVG parses as XML and has each TEXT in a text node (test_plot.sh).

    svg_has.py FILE TEXT...
"""
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
if not root.tag.endswith("svg"):
    sys.exit(f"{sys.argv[1]}: root <{root.tag}>, not <svg>")
text = "\n".join("".join(e.itertext()) for e in root.iter()
                 if e.tag.endswith("text"))
miss = [t for t in sys.argv[2:] if t not in text]
if miss:
    sys.exit(f"{sys.argv[1]}: no text {miss}")
