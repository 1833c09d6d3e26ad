"""Generate ``crdtool/core/builtin/data/gotypes.json.gz``: the Go type of each field of k8s.io/api's structs.

Usage: ``python build_backend/gen_builtin_gotypes.py --git-dir /path/to/kubernetes/api.git`` (a bare clone of
github.com/kubernetes/api; ``--check`` compares instead of writing).

The OpenAPI documents name a field's JSON type, not its Go type; encoding/json's type errors print the Go type
(``reflect.Type.String()``: ``v1.PullPolicy``, ``v1.ResourceList``, ``*int32`` dereferenced to ``int32``). For
each release's tag (``crdtool.core.releases.RELEASES``) every ``<group>/<version>/*.go`` of k8s.io/api is read
(``type X struct`` blocks, their fields' JSON names and types; ``type X <underlying>`` named types) and, per
OpenAPI definition (``io.k8s.api.apps.v1.DeploymentSpec``), the fields whose Go type is a *named* type of a
scalar, map or slice are kept: ``{"imagePullPolicy": "v1.PullPolicy"}``. Struct-typed fields are named by the
OpenAPI definitions already. Output: ``{"releases": [...], "index": {definition: [variant per release, -1 if
none]}, "variants": {definition: [{field: go type}, ...]}}``, deterministic (sorted keys, gzip mtime 0).
Also ``structs``: per release, the JSON fields of every struct and their Go types (``[json, go type, kind]``) of
the definitions the 1.37 OpenAPI stand-in lacks (see ``gen_builtin_schemas.py``), under ``"fields137"``.

And the fields a struct gets from the structs it embeds (``VolumeSource `json:",inline"``` in ``Volume``; 1.37 writes
``json:""``): ``{"embeddedIndex": {definition: [variant per release, -1 if none]}, "embeddedVariants": {definition:
[{json field: [embedded Go field name, ...]}, ...]}}`` (``{"hostPath": ["VolumeSource"]}``), Go's promotion rules (a
struct's own field wins, then the shallowest; two at the same depth cancel). From 1.35 the decoder writes those names
into a type error's field path (``crdtool.core.crd.decode.FULL_FIELD_PATH_SINCE``).
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from crdtool.core.releases import RELEASES  # noqa: E402

OUT = ROOT / "crdtool" / "core" / "builtin" / "data" / "gotypes.json.gz"
_STRUCT = re.compile(r"^type (\w+) struct \{\n(.*?)^\}", re.S | re.M)
_NAMED = re.compile(r"^type (\w+) (?!struct\b)(?!interface\b)([\w\[\]\*\.]+)\s*$", re.M)
_FIELD = re.compile(r"^\t(\w+)\s+([\w\[\]\*\.]+)\s+`json:\"([^\",]*)[^`]*`", re.M)
#: an embedded field: a type alone, untagged or with an empty JSON name (``json:",inline"``, ``json:""``)
_EMBED = re.compile(r"^\t\*?([\w\.]+)[ \t]*(`[^`]*`)?[ \t]*$", re.M)
_JSON_NAME = re.compile(r'json:"([^",]*)')
#: the fields of the structs embedded from other packages (k8s.io/apimachinery's meta/v1)
_FOREIGN = {"TypeMeta": ["kind", "apiVersion"]}
_IMPORT = re.compile(r'^\s*(\w+)?\s*"([^"]+)"\s*$', re.M)
_BUILTIN = {"string", "bool", "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64",
            "float32", "float64", "byte", "rune"}


def _git(git_dir: str, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", git_dir, *args], check=True, capture_output=True, text=True).stdout


def _imports(text: str) -> dict[str, str]:
    """alias → package name (the import path's last element) of a file's imports."""
    out: dict[str, str] = {}
    block = re.search(r"^import \((.*?)^\)", text, re.S | re.M)
    lines = block.group(1) if block else ""
    single = re.findall(r'^import (\w+ )?"([^"]+)"', text, re.M)
    for alias, path in [*_IMPORT.findall(lines), *((a.strip(), p) for a, p in single)]:
        name = path.rstrip("/").rpartition("/")[2]
        out[alias or name] = name
    return out


def go_string(expr: str, pkg: str, imports: dict[str, str]) -> str:
    """``reflect.Type.String()`` of a Go type expression in package ``pkg`` (pointers dereferenced at the top)."""
    expr = expr.lstrip("*")
    if expr.startswith("[]"):
        return "[]" + _go(expr[2:], pkg, imports)
    return _go(expr, pkg, imports)


def _go(expr: str, pkg: str, imports: dict[str, str]) -> str:
    if expr.startswith("*"):
        return "*" + _go(expr[1:], pkg, imports)
    if expr.startswith("[]"):
        return "[]" + _go(expr[2:], pkg, imports)
    if expr.startswith("map["):
        depth, i = 0, 3
        for i in range(3, len(expr)):
            if expr[i] == "[":
                depth += 1
            elif expr[i] == "]":
                depth -= 1
                if depth == 0:
                    break
        return f"map[{_go(expr[4:i], pkg, imports)}]{_go(expr[i + 1:], pkg, imports)}"
    if "." in expr:
        alias, _, name = expr.partition(".")
        return f"{imports.get(alias, alias)}.{name}"
    if expr in _BUILTIN:
        return {"byte": "uint8", "rune": "int32"}.get(expr, expr)
    return f"{pkg}.{expr}"


def _package_files(git_dir: str, tag: str) -> dict[str, list[str]]:
    """``<group>/<version>`` → its hand-written ``.go`` files in k8s.io/api at ``tag``."""
    files = [f for f in _git(git_dir, "ls-tree", "-r", "--name-only", tag).splitlines()
             if f.count("/") == 2 and f.endswith(".go") and not f.endswith("_test.go")
             and "zz_generated" not in f and "generated.pb" not in f and not f.endswith(".pb.go")]
    by_dir: dict[str, list[str]] = {}
    for f in files:
        by_dir.setdefault(f.rpartition("/")[0], []).append(f)
    return by_dir


def read_tag(git_dir: str, tag: str) -> dict[str, dict[str, str]]:
    """definition name → {json field: Go type string} for the named non-struct fields of k8s.io/api at ``tag``."""
    by_dir = _package_files(git_dir, tag)
    out: dict[str, dict[str, str]] = {}
    for folder, paths in sorted(by_dir.items()):
        pkg = folder.rpartition("/")[2]
        texts = [_git(git_dir, "show", f"{tag}:{p}") for p in sorted(paths)]
        named = {n: u for t in texts for n, u in _NAMED.findall(t)}
        structs = {n for t in texts for n, _ in _STRUCT.findall(t)}
        for text in texts:
            imports = _imports(text)
            for name, body in _STRUCT.findall(text):
                fields: dict[str, str] = {}
                for _, expr, js in _FIELD.findall(body):
                    if not js or js == "-":
                        continue
                    base = expr.lstrip("*").removeprefix("[]").lstrip("*")
                    local_named = "." not in base and base in named and base not in structs
                    qualified_scalar = "." in base and base.split(".")[0] in ("types",)
                    if local_named or qualified_scalar or expr.lstrip("*").startswith("map["):
                        fields[js] = go_string(expr, pkg, imports)
                if fields:
                    out[f"io.k8s.api.{folder.replace('/', '.')}.{name}"] = fields
    return out


def _promotes(tag: str) -> bool:
    """Whether an embedded field with this struct tag promotes its fields: no JSON name (``json:",inline"``,
    ``json:""``, no json key)."""
    found = _JSON_NAME.search(tag)
    return found is None or found.group(1) == ""


def read_embedded(git_dir: str, tag: str) -> dict[str, dict[str, list[str]]]:
    """definition name → {promoted JSON field: [embedded Go field names, outermost first]} at ``tag``."""
    by_dir = _package_files(git_dir, tag)
    out: dict[str, dict[str, list[str]]] = {}
    for folder, paths in sorted(by_dir.items()):
        bodies = {n: b for p in sorted(paths) for n, b in _STRUCT.findall(_git(git_dir, "show", f"{tag}:{p}"))}
        own = {n: [js for _, _, js in _FIELD.findall(b) if js and js != "-"] for n, b in bodies.items()}
        embeds = {n: [e for e, tag in _EMBED.findall(b) if _promotes(tag)] for n, b in bodies.items()}

        def promoted(struct: str, seen: tuple[str, ...] = ()) -> dict[str, list[str]]:
            # by depth: a field reached by fewer embeddings wins; two at the same depth cancel (encoding/json
            # typeFields / dominantField)
            found: dict[str, tuple[int, list[str] | None]] = {}
            for expr in embeds.get(struct, []):
                name = expr.rpartition(".")[2]
                if "." in expr:
                    inner = {js: [] for js in _FOREIGN.get(name, [])}
                    if name not in _FOREIGN:
                        print(f"{tag}: {folder}.{struct} embeds {expr}: its fields unknown here", file=sys.stderr)
                elif name in bodies and name not in seen:
                    inner = {js: [] for js in own[name]}
                    inner.update({js: c for js, c in promoted(name, seen + (name,)).items() if js not in inner})
                else:
                    continue
                for js, chain in inner.items():
                    depth = len(chain) + 1
                    if js in found and found[js][0] < depth:
                        continue
                    found[js] = (depth, None) if js in found and found[js][0] == depth else (depth, [name, *chain])
            return {js: c for js, (_, c) in found.items() if c is not None and js not in own.get(struct, [])}

        for struct in bodies:
            fields = promoted(struct, (struct,))
            if fields:
                out[f"io.k8s.api.{folder.replace('/', '.')}.{struct}"] = fields
    return out


def _variants(per: list[dict[str, Any]]) -> tuple[dict[str, list[int]], dict[str, list[Any]]]:
    """Per definition, the index of its variant in each release (-1: none) and the distinct variants."""
    index: dict[str, list[int]] = {}
    variants: dict[str, list[Any]] = {}
    for name in sorted({n for p in per for n in p}):
        row = []
        for p in per:
            if name not in p:
                row.append(-1)
                continue
            seen = variants.setdefault(name, [])
            if p[name] not in seen:
                seen.append(p[name])
            row.append(seen.index(p[name]))
        index[name] = row
    return index, variants


def render(git_dir: str) -> bytes:
    releases = [r for _, r in sorted(RELEASES.items())]
    index, variants = _variants([read_tag(git_dir, r.tag) for r in releases])
    embedded_index, embedded_variants = _variants([read_embedded(git_dir, r.tag) for r in releases])
    doc = {"releases": [r.name for r in releases], "tags": [r.tag for r in releases], "index": index,
           "variants": variants, "embeddedIndex": embedded_index, "embeddedVariants": embedded_variants}
    return gzip.compress(json.dumps(doc, sort_keys=True, separators=(",", ":")).encode(), compresslevel=9, mtime=0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--git-dir", required=True)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    data = render(args.git_dir)
    if args.check:
        return 0 if OUT.read_bytes() == data else 1
    OUT.write_bytes(data)
    print(f"{OUT.name}: {len(data):,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
