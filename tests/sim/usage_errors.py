# SPDX-License-Identifier: BSD-3-Clause
"""The sim tools' bad-input cases, one loop for every test file: each
command must exit 2 with the bad value named and no traceback."""
import subprocess


def check(tc, argv, cases, tail=()):
    """argv + args + tail for each (args, named) of cases, under the
    unittest.TestCase tc."""
    for args, named in cases:
        out = subprocess.run([*argv, *args, *tail], capture_output=True, text=True)
        tc.assertEqual(out.returncode, 2, (args, out.stderr))
        tc.assertIn(named, out.stderr, args)
        tc.assertNotIn("Traceback", out.stderr, args)
