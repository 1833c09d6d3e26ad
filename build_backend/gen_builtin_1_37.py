"""Derive 1.37's changes to the built-in OpenAPI from k8s.io/api: ``build_backend/builtin_1_37.json``.

Usage: ``python build_backend/gen_builtin_1_37.py --git-dir /path/to/kubernetes/api.git`` (``--check`` compares).

Kubernetes 1.37's published ``api/openapi-spec/v3`` was not available when crdtool's data was generated (the
release is not out; ``../shared/openapi`` stops at 1.36). ``gen_builtin_schemas.py`` gives 1.37 the 1.36
documents patched with this file, which compares the Go structs of k8s.io/api ``v0.36.3`` and
``v0.37.0-beta.0`` (every ``<group>/<version>/*.go``):

* ``definitions``: each struct new in 1.37, as OpenAPI (field JSON names; Go ``string``/``bool``/ints/floats,
  slices, maps, pointers; local structs and meta/v1 types by ``$ref``; named scalar types as their underlying
  type); a top-level kind gets ``apiVersion``, ``kind``, ``metadata`` (its ``TypeMeta``/``ObjectMeta``);
* ``properties``: fields added to a struct 1.36 has (``{definition: {field: schema}}``);
* ``removed``: structs gone in 1.37 (their definitions are dropped, their kinds unserved);
* ``kinds``: the ``+genclient`` types of the new structs, namespaced unless ``+genclient:nonNamespaced``,
  their resource the lower-cased plural of the kind (``+resourceName`` when given).

What this cannot know (a field's ``required``, list types, defaults, formats beyond the Go type) stays out:
decoding needs none of it. Deterministic (sorted keys).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "build_backend" / "builtin_1_37.json"
BEFORE, AFTER = "v0.36.3", "v0.37.0-beta.0"
_STRUCT = re.compile(r"^type (\w+) struct \{\n(.*?)^\}", re.S | re.M)
_FIELD = re.compile(r"^\t(?:(\w+)[ \t]+)?([\w\[\]\*\.]+)[ \t]+`json:\"([^\",]*)[^`]*`", re.M)
_NAMED = re.compile(r"^type (\w+) (?!struct\b)(?!interface\b)([\w\[\]\*\.]+)\s*$", re.M)
_GROUP = re.compile(r'GroupName\s*=\s*"([^"]*)"')
_META = "io.k8s.apimachinery.pkg.apis.meta.v1."
_INTS = {"int32": ("integer", "int32"), "int64": ("integer", "int64"), "int": ("integer", "int64"),
         "uint8": ("integer", "int32"), "byte": ("integer", "int32"), "float64": ("number", "double"),
         "float32": ("number", "double")}


def _git(git_dir: str, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", git_dir, *args], check=True, capture_output=True, text=True).stdout


def read(git_dir: str, tag: str) -> tuple[dict[str, dict[str, str]], dict[str, str], dict[str, str], dict[str, str]]:
    """(struct definition → {json: Go expr}, definition → comment block, folder → group, named types)."""
    files = [f for f in _git(git_dir, "ls-tree", "-r", "--name-only", tag).splitlines()
             if f.count("/") == 2 and f.endswith(".go") and not f.endswith("_test.go") and "zz_generated" not in f
             and "generated.pb" not in f]
    structs: dict[str, dict[str, str]] = {}
    comments: dict[str, str] = {}
    groups: dict[str, str] = {}
    named: dict[str, str] = {}
    for f in sorted(files):
        folder = f.rpartition("/")[0]
        text = _git(git_dir, "show", f"{tag}:{f}")
        if f.endswith("/register.go") and (m := _GROUP.search(text)):
            groups[folder] = m.group(1)
        prefix = f"io.k8s.api.{folder.replace('/', '.')}."
        for n, u in _NAMED.findall(text):
            named[prefix + n] = u
        for m in _STRUCT.finditer(text):
            name, body = m.group(1), m.group(2)
            # the comments since the previous declaration: the +genclient markers may sit a blank line above
            before_decl = text[: m.start()]
            cut = max(before_decl.rfind("\n}"), before_decl.rfind("\n)"), before_decl.rfind("\ntype "))
            comment = before_decl[cut + 1:] if cut >= 0 else before_decl
            fields = {}
            for _, expr, js in _FIELD.findall(body):
                if js and js != "-":
                    fields[js] = expr
                elif expr.endswith("TypeMeta"):
                    fields["apiVersion"], fields["kind"] = "string", "string"
            structs[prefix + name] = fields
            comments[prefix + name] = comment
    return structs, comments, groups, named


def schema_of(expr: str, prefix: str, structs: dict[str, dict[str, str]], named: dict[str, str]) -> dict[str, object]:
    """The OpenAPI schema of a Go type expression of package ``prefix`` (``io.k8s.api.apps.v1.``)."""
    expr = expr.lstrip("*")
    if expr.startswith("[]"):
        return {"type": "array", "items": schema_of(expr[2:], prefix, structs, named)}
    if expr.startswith("map["):
        return {"type": "object", "additionalProperties": schema_of(expr.partition("]")[2], prefix, structs, named)}
    if expr == "string":
        return {"type": "string"}
    if expr == "bool":
        return {"type": "boolean"}
    if expr in _INTS:
        kind, fmt = _INTS[expr]
        return {"type": kind, "format": fmt}
    if expr.startswith("metav1."):
        return {"$ref": _META + expr.partition(".")[2]}
    if expr == "resource.Quantity":
        return {"$ref": "io.k8s.apimachinery.pkg.api.resource.Quantity"}
    if expr == "intstr.IntOrString":
        return {"$ref": "io.k8s.apimachinery.pkg.util.intstr.IntOrString"}
    if expr.startswith("types."):
        return {"type": "string"}
    if "." in expr:  # another k8s.io/api package (corev1.X)
        return {"type": "object", "x-kubernetes-preserve-unknown-fields": True}
    if prefix + expr in structs:
        return {"$ref": prefix + expr}
    if prefix + expr in named:
        return schema_of(named[prefix + expr], prefix, structs, named)
    return {"type": "object", "x-kubernetes-preserve-unknown-fields": True}


def _definition(name: str, fields: dict[str, str], structs: dict[str, dict[str, str]], named: dict[str, str]) -> dict[str, object]:
    prefix = name.rpartition(".")[0] + "."
    props = {js: schema_of(expr, prefix, structs, named) for js, expr in fields.items()}
    if fields.get("metadata") == "metav1.ObjectMeta":
        props["metadata"] = {"$ref": _META + "ObjectMeta", "default": {}}
    elif fields.get("metadata") == "metav1.ListMeta":
        props["metadata"] = {"$ref": _META + "ListMeta", "default": {}}
    return {"type": "object", "properties": props}


def render(git_dir: str) -> str:
    before, _, _, _ = read(git_dir, BEFORE)
    after, comments, groups, named = read(git_dir, AFTER)
    definitions: dict[str, object] = {}
    kinds: list[list[object]] = []
    for name in sorted(set(after) - set(before)):
        definitions[name] = _definition(name, after[name], after, named)
        comment = comments.get(name, "")
        if "+genclient\n" in comment:
            folder = name[len("io.k8s.api."):].rpartition(".")[0].replace(".", "/")
            kind = name.rpartition(".")[2]
            m = re.search(r"\+resourceName=(\w+)", comment)
            plural = m.group(1) if m else kind.lower() + ("es" if kind.endswith("s") else "s")
            kinds.append([groups.get(folder, ""), folder.rpartition("/")[2], kind,
                          "+genclient:nonNamespaced" not in comment, plural, name,
                          ["deletecollection", "list", "post"]])
    properties: dict[str, dict[str, object]] = {}
    for name in sorted(set(after) & set(before)):
        added = {js: e for js, e in after[name].items() if js not in before[name]}
        if added:
            prefix = name.rpartition(".")[0] + "."
            properties[name] = {js: schema_of(e, prefix, after, named) for js, e in sorted(added.items())}
    doc = {"from": BEFORE, "to": AFTER, "definitions": definitions, "properties": properties,
           "removed": sorted(set(before) - set(after)), "kinds": sorted(kinds)}
    return json.dumps(doc, sort_keys=True, indent=1) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--git-dir", required=True)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    text = render(args.git_dir)
    if args.check:
        return 0 if OUT.read_text(encoding="utf-8") == text else 1
    OUT.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
