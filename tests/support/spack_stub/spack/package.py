# SPDX-License-Identifier: BSD-3-Clause
"""Test aid: the few names of Spack's `spack.package` that cxd's recipe
uses. Each directive records its call in DIRECTIVES, in order, for
tests/e2e/py/spack_recipe.py to check; nothing is built or fetched."""
import os

DIRECTIVES = []


def _directive(name):
    def record(*args, **kwargs):
        DIRECTIVES.append((name, args, kwargs))
    record.__name__ = name
    return record


version = _directive("version")
variant = _directive("variant")
depends_on = _directive("depends_on")
conflicts = _directive("conflicts")
maintainers = _directive("maintainers")
license = _directive("license")


class CMakePackage:
    """Spack's base class for CMake projects, reduced to define()."""

    def __init__(self, spec=None):
        self.spec = spec

    @staticmethod
    def define(name, value):
        if isinstance(value, bool):
            value = "ON" if value else "OFF"
        return "-D{0}={1}".format(name, value)


def join_path(*parts):
    return os.path.join(*parts)


def which(*names):
    raise RuntimeError("the stub runs no programs")
