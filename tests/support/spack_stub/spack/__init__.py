# SPDX-License-Identifier: BSD-3-Clause
"""Test aid: a small stand-in for Spack's `spack.package` module, so the
recipe packaging/spack/package.py can be imported and checked here, where
Spack itself is not installed (tests/e2e/py/spack_recipe.py)."""
