"""crdtool's PEP 517 build backend: setuptools', plus mypy (for mypyc) when ``CRDTOOL_MYPYC=1`` asks for a compiled build.

A source install (``pip install .``, ``pip install -e .``, pre-commit's hook environment) is pure Python and
needs nothing but setuptools. ``CRDTOOL_MYPYC=1`` set while building (``python -m build --wheel``,
cibuildwheel, ``pip install``) compiles the modules of ``crdtool/_compiled.py`` with mypyc (``setup.py``);
mypy, which carries mypyc, is then added to the build requirements, as black's and mypy's own builds do
behind ``HATCH_BUILD_HOOKS_ENABLE`` / ``MYPY_USE_MYPYC``.
"""

from __future__ import annotations

import os
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F401,F403 - every other hook is setuptools' own

#: What a compiled build needs on top of setuptools (mypyc ships inside mypy).
MYPYC_REQUIRES = ["mypy>=1.15"]


def mypyc_requested(environ: Any = os.environ) -> bool:
    """``CRDTOOL_MYPYC`` is set to anything but ``""`` or ``"0"``."""
    return environ.get("CRDTOOL_MYPYC", "") not in ("", "0")


def _extra() -> list[str]:
    return list(MYPYC_REQUIRES) if mypyc_requested() else []


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    return list(_setuptools.get_requires_for_build_wheel(config_settings)) + _extra()


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    return list(_setuptools.get_requires_for_build_editable(config_settings)) + _extra()
