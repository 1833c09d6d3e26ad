"""Prepare a kubeconform schema directory from the JSON Schemas the ``kubernetes-validate`` package ships.

Run: python benchmarks/kubeconform_schemas.py [--kubernetes-version 1.35] [--source PATH] [--out DIR]

The PyPI package ``kubernetes-validate`` (``pip install kubernetes-validate``; 1.37.0 ships releases 1.25 … 1.37)
holds, per release, ``kubernetes_validate/kubernetes-json-schema/v1.XX.0-local-strict/``: one file per kind named
as kubeconform names them (``{{ .ResourceKind }}{{ .KindSuffix }}.json``: ``deployment-apps-v1.json``,
``pod-v1.json``, ``clusterrole-rbac-v1.json``) whose ``$ref`` point into ``/api/_definitions.json#/$defs/…``, and
``_definitions.json``. kubeconform built from source (``pkg/validator/validator.go`` ``downloadSchema``: a
santhosh-tekuri/jsonschema v6 compiler with ``DefaultDraft(Draft4)`` and a ``file`` loader) reads them once

- each ``$ref`` is made relative (``_definitions.json#/$defs/…``, resolved against the schema file's path), and
- ``$schema`` is dropped: kubeconform's default draft (4) then applies, which does not know ``$id``. Under the
  files' own draft 2020-12, ``$id`` (``https://kubernetes.io/api/…``) re-bases the relative ``$ref`` on a URL
  and kubeconform reports "could not find schema" (tried with kubeconform e65429b: unchanged files, and relative
  ``$ref`` with ``$schema`` and ``$id`` kept, both fail; dropping either works). ``$id`` is dropped as well.

Prints the directory and the ``-schema-location`` template to give kubeconform. The directory is a temporary one
unless ``--out`` is given; it is data for a benchmark, never committed.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

_REF_PREFIX = "/api/_definitions.json#"


def _relative(node: Any) -> Any:
    """The schema ``node`` with every ``$ref`` into ``/api/_definitions.json`` made relative, ``$schema`` and
    ``$id`` dropped (recursively; a new value, ``node`` untouched)."""
    if isinstance(node, dict):
        out = {}
        for key, value in node.items():
            if key in ("$schema", "$id"):
                continue
            if key == "$ref" and isinstance(value, str) and value.startswith(_REF_PREFIX):
                value = "_definitions.json#" + value[len(_REF_PREFIX):]
            out[key] = _relative(value)
        return out
    if isinstance(node, list):
        return [_relative(v) for v in node]
    return node


def _release_files(source: Path | None, release: str) -> Iterator[tuple[str, bytes]]:
    """(file name, bytes) of each schema file of ``v{release}.0-local-strict`` in ``source`` (a wheel of
    kubernetes-validate, or its installed package directory; the installed package when None).

    Raises FileNotFoundError when the release is not in the package."""
    sub = f"kubernetes-json-schema/v{release}.0-local-strict/"
    if source is not None and source.suffix == ".whl":
        with zipfile.ZipFile(source) as whl:
            names = [n for n in whl.namelist() if f"kubernetes_validate/{sub}" in n and n.endswith(".json")]
            if not names:
                raise FileNotFoundError(f"{source}: no {sub}")
            for name in names:
                yield name.rsplit("/", 1)[1], whl.read(name)
        return
    if source is None:
        import kubernetes_validate  # type: ignore[import-not-found,import-untyped,unused-ignore]

        source = Path(kubernetes_validate.__file__).parent
    folder = source / sub
    if not folder.is_dir():
        raise FileNotFoundError(f"{folder}: not a directory")
    for path in sorted(folder.glob("*.json")):
        yield path.name, path.read_bytes()


def prepare(release: str, out: Path, source: Path | None = None) -> tuple[int, str, str]:
    """Write ``release``'s (``"1.35"``) strict schemas of kubernetes-validate into ``out`` for kubeconform.

    Returns (number of files, the package's version, the ``-schema-location`` template)."""
    out.mkdir(parents=True, exist_ok=True)
    n = 0
    for name, data in _release_files(source, release):
        (out / name).write_text(json.dumps(_relative(json.loads(data))))
        n += 1
    version = "?"
    if source is not None and source.suffix == ".whl":
        version = source.name.split("-")[1]
    else:
        from importlib.metadata import PackageNotFoundError, version as dist_version

        try:
            version = dist_version("kubernetes-validate")
        except PackageNotFoundError:
            pass
    return n, version, str(out / "{{ .ResourceKind }}{{ .KindSuffix }}.json")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kubernetes-version", default="1.35", help="a release, as 1.35")
    parser.add_argument("--source", type=Path, help="a kubernetes-validate wheel or package directory "
                        "(default: the installed package)")
    parser.add_argument("--out", type=Path, help="the directory to write (default: a new temporary one)")
    args = parser.parse_args()
    out = args.out or Path(tempfile.mkdtemp(prefix="kubeconform-schemas-"))
    try:
        n, version, template = prepare(args.kubernetes_version, out, args.source)
    except (FileNotFoundError, ModuleNotFoundError) as e:
        sys.exit(f"kubeconform_schemas: {e} (pip install kubernetes-validate, or --source a wheel)")
    print(f"{n} schemas of kubernetes-validate {version}, release {args.kubernetes_version}, in {out}")
    print(f"-schema-location '{template}'")


if __name__ == "__main__":
    main()
