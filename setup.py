"""crdtool's build: pyproject.toml holds the metadata; this adds the mypyc-compiled core modules on request.

A build is pure Python unless ``CRDTOOL_MYPYC=1`` is set: then the modules in
``crdtool/_compiled.py`` are compiled into C extensions with mypyc (part of
mypy, which ``build_backend/crdtool_build.py`` adds to the build requirements),
with the small C extensions of ``C_EXTENSIONS``. A compiled build that cannot
compile (no C compiler, no Python headers, no mypyc) fails, rather than
quietly producing a pure wheel under a compiled wheel's name.
"""

from __future__ import annotations

import os
import sys
import sysconfig
import tempfile
from typing import Any

from setuptools import setup


def _compiled_modules() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the modules mypyc compiles, the C extension modules) listed in ``crdtool/_compiled.py``."""
    namespace: dict[str, Any] = {}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "crdtool", "_compiled.py")
    with open(path, encoding="utf-8") as fh:
        exec(compile(fh.read(), path, "exec"), namespace)  # noqa: S102 - our own module, without importing crdtool
    return tuple(namespace["COMPILED_MODULES"]), tuple(namespace["C_EXTENSIONS"])


def _can_compile() -> bool:
    """A C compiler builds an object file that includes Python.h."""
    try:
        from setuptools._distutils.ccompiler import new_compiler
        from setuptools._distutils.sysconfig import customize_compiler

        compiler = new_compiler()
        customize_compiler(compiler)
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "probe.c")
            with open(src, "w", encoding="utf-8") as fh:
                fh.write("#include <Python.h>\nint crdtool_probe(void) { return 0; }\n")
            compiler.compile([src], output_dir=tmp, include_dirs=[sysconfig.get_paths()["include"]])
        return True
    except Exception:  # any failure: no compiler, no headers, a broken toolchain
        return False


def _mypyc_requested() -> bool:
    return os.environ.get("CRDTOOL_MYPYC", "") not in ("", "0")


def _metadata_only() -> bool:
    """This run of setup.py only writes metadata or an sdist (the build backend asks for its requirements so)."""
    commands = [arg for arg in sys.argv[1:] if not arg.startswith("-")]
    return bool(commands) and all(c in ("egg_info", "dist_info", "sdist") for c in commands)


def _ext_modules() -> list[Any]:
    if not _mypyc_requested() or _metadata_only():
        return []
    if sys.implementation.name != "cpython" or not _can_compile():
        raise SystemExit("crdtool: CRDTOOL_MYPYC=1 needs CPython with a working C compiler and Python's headers")
    try:
        from mypyc.build import mypycify
    except ImportError:
        raise SystemExit("crdtool: CRDTOOL_MYPYC=1 needs mypyc (pip install mypy) in the build environment") from None
    from setuptools import Extension

    python_modules, c_modules = _compiled_modules()
    paths = [name.replace(".", "/") + ".py" for name in python_modules]
    # The build environment has setuptools and mypy only: the runtime dependencies' types are unknown here
    # (the test suite type-checks with them installed). Not optional: once the probe compiled, a failing
    # module is a bug to see, not a half-compiled install.
    compiled = list(mypycify(["--ignore-missing-imports", *paths], opt_level="3", group_name="crdtool"))
    return compiled + [Extension(name, [name.replace(".", "/") + ".c"]) for name in c_modules]


def _write_bytecode_in_place(package_dir: str) -> None:
    """An editable install also writes the package's bytecode beside its sources, as pip does for a regular one.

    Python never writes it when ``PYTHONDONTWRITEBYTECODE`` is set (as in many
    containers), and an editable tree would then compile every module from
    source in every process: about 0.1 s for each of ``crdtool validate``'s
    workers. Checked-hash ``.pyc`` files: a source edited afterwards is noticed
    by its content and compiled afresh, never run stale.
    """
    import compileall
    import py_compile

    try:
        compileall.compile_dir(package_dir, quiet=2, invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)
    except OSError as err:  # a read-only tree: the install works without bytecode
        print(f"crdtool: bytecode not written ({err})", file=sys.stderr)


def _cmdclass() -> dict[str, Any]:
    from setuptools.command.build_py import build_py

    class BuildPy(build_py):  # type: ignore[misc]
        def run(self) -> None:
            super().run()
            if getattr(self, "editable_mode", False):
                _write_bytecode_in_place(os.path.join(os.path.dirname(os.path.abspath(__file__)), "crdtool"))

    return {"build_py": BuildPy}


setup(ext_modules=_ext_modules(), cmdclass=_cmdclass())
