"""Generate crdtool's built-in schema data (``crdtool/core/builtin/data/``) from Kubernetes' OpenAPI v3.

Usage: ``python build_backend/gen_builtin_schemas.py [--source ../shared/openapi] [--out crdtool/core/builtin/data]``
(``--check`` compares instead of writing; exit 1 on a difference).

Input: ``<source>/<release>/api/v1.json`` and ``<source>/<release>/apis/<group>/<version>.json``, the
``api/openapi-spec/v3`` documents of kubernetes/kubernetes per release (see ``<source>/README.md``).
A release without a folder (1.37: not published when this was generated) is given the documents of the
newest release before it, listed in ``index.json.gz`` under ``derived``, patched with ``builtin_1_37.json``
(what k8s.io/api v0.37.0-beta.0's Go types add and remove, ``gen_builtin_1_37.py``).

Output (deterministic: sorted keys, gzip with mtime 0):

* ``index.json.gz``: ``{"releases": [...], "derived": {release: from}, "definitions": {name: [variant per
  release, -1 if absent]}, "kinds": {release: [[group, version, kind, namespaced, plural, definition,
  verbs], ...]}, "groupVersions": {release: [gv, ...]}}``
* ``<package>.json.gz`` per Go package of the definitions (``io.k8s.api.apps.v1``):
  ``{name: [schema variant, ...]}``; every distinct schema of a definition is stored once across releases.
  A schema keeps what validation and decoding need (type, format, items, properties,
  additionalProperties, required, default, nullable, enum, ``x-kubernetes-*``), ``$ref`` by definition
  name (``allOf: [{$ref}]`` folded into ``$ref``), ``IntOrString`` and ``Quantity``'s ``oneOf`` kept.
* ``<package>.docs.json.gz``: ``{name: [{"": description, property: description, ...} variant, ...]}``
  with the per-release variant numbers of ``index.json.gz`` under ``"docs"``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
from pathlib import Path
from typing import Any

RELEASES = ("1.30", "1.31", "1.32", "1.33", "1.34", "1.35", "1.36", "1.37")
KEEP = frozenset({
    "type", "format", "required", "default", "nullable", "enum", "minimum", "maximum", "maxLength", "minLength",
    "pattern", "maxItems", "minItems", "maxProperties", "minProperties", "uniqueItems",
    "x-kubernetes-list-type", "x-kubernetes-list-map-keys", "x-kubernetes-map-type",
    "x-kubernetes-group-version-kind", "x-kubernetes-int-or-string", "x-kubernetes-preserve-unknown-fields",
    "x-kubernetes-embedded-resource", "x-kubernetes-validations", "x-kubernetes-unions",
    "x-kubernetes-patch-strategy", "x-kubernetes-patch-merge-key",
})
REF_PREFIX = "#/components/schemas/"
#: Files of the data folder another generator writes (``gen_builtin_gotypes.py``).
OTHER_GENERATORS = frozenset({"gotypes.json.gz"})
_RESOURCE_PATH = re.compile(r"^/apis?(?:/([^/]+))?/([^/]+)/(?:namespaces/\{namespace\}/)?([a-z0-9.-]+)$")


def _ref(ref: str) -> str:
    return ref[len(REF_PREFIX):] if ref.startswith(REF_PREFIX) else ref


def slim(schema: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """The schema without descriptions (and its descriptions: ``""`` for its own, a property's by name)."""
    docs: dict[str, str] = {}
    if "description" in schema:
        docs[""] = schema["description"]
    out = _slim(schema)
    for name, prop in (schema.get("properties") or {}).items():
        if "description" in prop:
            docs[name] = prop["description"]
    return out, docs


def _slim(s: Any) -> Any:
    if not isinstance(s, dict):
        return s
    out: dict[str, Any] = {}
    for key, value in s.items():
        if key == "$ref":
            out["$ref"] = _ref(value)
        elif key == "allOf" and len(value) == 1 and set(value[0]) == {"$ref"}:
            out["$ref"] = _ref(value[0]["$ref"])
        elif key in ("oneOf", "anyOf", "allOf"):
            out[key] = [_slim(v) for v in value]
        elif key == "properties":
            out[key] = {k: _slim(v) for k, v in value.items()}
        elif key in ("items", "additionalProperties", "not"):
            out[key] = _slim(value)
        elif key in KEEP:
            out[key] = value
    return out


def read_release(folder: Path) -> tuple[dict[str, dict[str, Any]], list[list[Any]], list[str]]:
    """(definitions by name, kinds, group-versions) of one release folder."""
    defs: dict[str, dict[str, Any]] = {}
    kinds: dict[tuple[str, str, str], list[Any]] = {}
    gvs: list[str] = []
    files = [folder / "api" / "v1.json", *sorted((folder / "apis").glob("*/*.json"))]
    for path in files:
        doc = json.loads(path.read_text(encoding="utf-8"))
        gv = "v1" if path.parent.name == "api" else f"{path.parent.name}/{path.stem}"
        gvs.append(gv)
        for name, schema in (doc.get("components", {}).get("schemas") or {}).items():
            defs.setdefault(name, schema)
        for url, item in sorted((doc.get("paths") or {}).items()):
            m = _RESOURCE_PATH.match(url)
            if m is None:
                continue
            for verb, op in item.items():
                if not isinstance(op, dict) or "x-kubernetes-group-version-kind" not in op:
                    continue
                gvk = op["x-kubernetes-group-version-kind"]
                if f"{gvk['group']}/{gvk['version']}".lstrip("/") != gv:
                    continue
                namespaced = "/namespaces/{namespace}/" in url
                plural = m.group(3)
                if plural in ("namespaces",) and namespaced:
                    continue
                key = (gvk["group"], gvk["version"], gvk["kind"])
                action = op.get("x-kubernetes-action", verb)
                entry = kinds.get(key)
                if entry is None:
                    ref = _definition_of(key, doc)
                    entry = kinds[key] = [gvk["group"], gvk["version"], gvk["kind"], namespaced, plural, ref, []]
                if namespaced and not entry[3]:
                    entry[3] = True
                if action not in entry[6]:
                    entry[6].append(action)
    for entry in kinds.values():
        entry[6] = sorted(entry[6])
    return defs, sorted(kinds.values()), sorted(gvs)


def _definition_of(gvk: tuple[str, str, str], doc: dict[str, Any]) -> str:
    """The definition whose ``x-kubernetes-group-version-kind`` names ``gvk`` (``io.k8s.api.apps.v1.Deployment``)."""
    group, version, kind = gvk
    found = sorted(
        name for name, schema in (doc.get("components", {}).get("schemas") or {}).items()
        if {"group": group, "version": version, "kind": kind} in (schema.get("x-kubernetes-group-version-kind") or [])
    )
    # a kind's own definition ends in its name; meta/v1 types (DeleteOptions, WatchEvent) list every group
    own = [n for n in found if n.rpartition(".")[2] == kind]
    return (own or found or [""])[0]


#: Releases whose documents are derived from the previous release's with a patch of this folder
#: (``builtin_<major>_<minor>.json``, written by ``gen_builtin_1_37.py`` from k8s.io/api's Go types).
PATCHES = {"1.37": Path(__file__).resolve().parent / "builtin_1_37.json"}


def _patched(
    base: tuple[dict[str, Any], list[list[Any]], list[str]], release: str
) -> tuple[dict[str, Any], list[list[Any]], list[str]]:
    """``base`` (a release's definitions, kinds, group-versions) with ``release``'s patch applied, if any."""
    path = PATCHES.get(release)
    if path is None or not path.is_file():
        return base
    patch = json.loads(path.read_text(encoding="utf-8"))
    defs = {n: s for n, s in base[0].items() if n not in set(patch["removed"])}
    for name, props in patch["properties"].items():
        if name in defs:
            schema = dict(defs[name])
            schema["properties"] = {**schema.get("properties", {}), **props}
            defs[name] = schema
    defs.update(patch["definitions"])
    kinds = [k for k in base[1] if k[5] in defs] + [k for k in patch["kinds"] if k[:3] not in [b[:3] for b in base[1]]]
    gvs = sorted({f"{k[0]}/{k[1]}" if k[0] else k[1] for k in kinds}
                 | {gv for gv in base[2] if any((f"{k[0]}/{k[1]}" if k[0] else k[1]) == gv for k in kinds)})
    return defs, sorted(kinds), gvs


def generate(source: Path) -> dict[str, bytes]:
    """The data files by name, as bytes."""
    per_release: dict[str, tuple[dict[str, Any], list[list[Any]], list[str]]] = {}
    derived: dict[str, str] = {}
    last = None
    for release in RELEASES:
        folder = source / release
        if folder.is_dir():
            per_release[release] = read_release(folder)
            last = release
        elif last is not None:
            per_release[release] = _patched(per_release[last], release)
            derived[release] = last
    variants: dict[str, list[str]] = {}  # name -> canonical JSON texts
    doc_variants: dict[str, list[str]] = {}
    table: dict[str, list[int]] = {}
    doc_table: dict[str, list[int]] = {}
    names = sorted({n for defs, _, _ in per_release.values() for n in defs})
    for name in names:
        row, drow = [], []
        for release in RELEASES:
            defs = per_release[release][0]
            if name not in defs:
                row.append(-1)
                drow.append(-1)
                continue
            schema, docs = slim(defs[name])
            for text, seen, out in ((json.dumps(schema, sort_keys=True), variants, row),
                                    (json.dumps(docs, sort_keys=True), doc_variants, drow)):
                lst = seen.setdefault(name, [])
                if text not in lst:
                    lst.append(text)
                out.append(lst.index(text))
        table[name] = row
        doc_table[name] = drow
    index = {
        "releases": list(RELEASES),
        "derived": derived,
        "definitions": table,
        "docs": doc_table,
        "kinds": {r: per_release[r][1] for r in RELEASES},
        "groupVersions": {r: per_release[r][2] for r in RELEASES},
    }
    files: dict[str, bytes] = {"index.json.gz": _gz(json.dumps(index, sort_keys=True, separators=(",", ":")))}
    packages: dict[str, dict[str, list[Any]]] = {}
    docs_packages: dict[str, dict[str, list[Any]]] = {}
    for name in names:
        pkg = package_of(name)
        packages.setdefault(pkg, {})[name] = [json.loads(t) for t in variants[name]]
        docs_packages.setdefault(pkg, {})[name] = [json.loads(t) for t in doc_variants[name]]
    for pkg, content in packages.items():
        files[f"{pkg}.json.gz"] = _gz(json.dumps(content, sort_keys=True, separators=(",", ":")))
        files[f"{pkg}.docs.json.gz"] = _gz(json.dumps(docs_packages[pkg], sort_keys=True, separators=(",", ":")))
    return files


def package_of(name: str) -> str:
    """``io.k8s.api.apps.v1`` for ``io.k8s.api.apps.v1.Deployment``."""
    return name.rpartition(".")[0]


def _gz(text: str) -> bytes:
    return gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)


def main(argv: list[str] | None = None) -> int:
    root = Path(__file__).resolve().parents[1]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=root.parent / "shared" / "openapi")
    parser.add_argument("--out", type=Path, default=root / "crdtool" / "core" / "builtin" / "data")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    files = generate(args.source)
    if args.check:
        present = {p.name for p in args.out.glob("*.json.gz")} - OTHER_GENERATORS
        differ = sorted(n for n, b in files.items() if not (args.out / n).is_file() or (args.out / n).read_bytes() != b)
        extra = sorted(present - set(files))
        for n in differ + extra:
            print(f"differs: {n}", file=sys.stderr)
        return 1 if differ or extra else 0
    args.out.mkdir(parents=True, exist_ok=True)
    for stale in set(p.name for p in args.out.glob("*.json.gz")) - set(files) - OTHER_GENERATORS:
        (args.out / stale).unlink()
    for name, data in sorted(files.items()):
        (args.out / name).write_bytes(data)
    total = sum(len(b) for b in files.values())
    print(f"{len(files)} files, {total:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
