"""The committed built-in schema data equals a fresh generation from ``../shared/openapi``."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT.parent / "shared" / "openapi"
DATA = ROOT / "crdtool" / "core" / "builtin" / "data"


def _generator():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("gen_builtin_schemas", ROOT / "build_backend" / "gen_builtin_schemas.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_committed_data_is_a_fresh_generation() -> None:
    generator = _generator()
    files = generator.generate(SOURCE)
    committed = {p.name: p.read_bytes() for p in DATA.glob("*.json.gz") if p.name not in generator.OTHER_GENERATORS}
    assert sorted(committed) == sorted(files)
    assert [n for n in files if committed[n] != files[n]] == []
    assert sum(p.stat().st_size for p in DATA.glob("*.json.gz")) <= 5 * 1024 * 1024
