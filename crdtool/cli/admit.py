"""``crdtool admit BUNDLE.yaml...``: what the apiserver's admission chain answers to one request.

The inputs hold Kubernetes objects — CRDs, Namespaces, params objects, ValidatingAdmissionPolicies and
their bindings — and exactly one ``admission.k8s.io/v1`` ``AdmissionReview`` whose ``request`` is judged;
``--object``/``--old-object``/``--operation``/``--user``/``--group``/``--namespace`` build the request
instead. The chain is :func:`crdtool.core.admission.chain.admit`.

``-o json`` prints one object: ``allowed``, ``code``, ``reason``, ``message``, ``warnings``,
``auditAnnotations``, ``patchedObject`` (only when a mutation changed the object), ``typeCheckWarnings``,
``response`` (and ``rejected`` when policies or bindings would be refused at create). Text output shows the
decision first, then what the policies said.

Exit codes: 0 allowed, 1 denied or a policy/binding the apiserver would refuse at create, 2 usage or input
errors.
"""

from __future__ import annotations

from typing import Any

from crdtool.cli.markup import escape

from crdtool.cli.report import OutputFormat, console, write_json


class _UsageError(Exception):
    """A one-line problem with the inputs: exit 2."""


def _load(paths: list[str]) -> list[dict[str, Any]]:
    from crdtool.cli.inputs import load_inputs
    from crdtool.yaml.loader import InputError

    docs: list[dict[str, Any]] = []
    for item in load_inputs(paths):
        if isinstance(item, InputError):
            raise _UsageError(str(item))
        docs.append(item.data)
    return docs


def _load_one(path: str, what: str) -> dict[str, Any]:
    docs = _load([path])
    if len(docs) != 1:
        raise _UsageError(f"{path}: {what} must be one object, not {len(docs)} documents")
    return docs[0]


def parse_feature_gates(text: str | None) -> dict[str, bool]:
    """``--feature-gates A=true,B=false`` as the apiserver's flag reads it; raises :class:`_UsageError`."""
    from crdtool.core.admission.chain import KNOWN_FEATURE_GATES

    gates: dict[str, bool] = {}
    for part in (text or "").split(","):
        part = part.strip()
        if not part:
            continue
        name, sep, value = part.partition("=")
        name = name.strip()
        if not sep or value.strip().lower() not in ("true", "false"):
            raise _UsageError(f"--feature-gates: invalid value of {name}={value.strip()}, err: "
                              "strconv.ParseBool: parsing " + repr(value.strip()).replace("'", '"') + ": invalid syntax")
        if name not in KNOWN_FEATURE_GATES:
            raise _UsageError(f"--feature-gates: unrecognized feature gate: {name}")
        gates[name] = value.strip().lower() == "true"
    return gates


def _build_request(object_path: str | None, old_object_path: str | None, operation: str | None, user: str | None,
                   groups: list[str], namespace: str | None) -> dict[str, Any]:
    obj = _load_one(object_path, "--object") if object_path else None
    old = _load_one(old_object_path, "--old-object") if old_object_path else None
    op = operation or ("UPDATE" if obj is not None and old is not None else "DELETE" if obj is None else "CREATE")
    req: dict[str, Any] = {"uid": "", "operation": op.upper()}
    if obj is not None:
        req["object"] = obj
    if old is not None:
        req["oldObject"] = old
    user_info: dict[str, Any] = {}
    if user:
        user_info["username"] = user
    if groups:
        user_info["groups"] = list(groups)
    req["userInfo"] = user_info
    if namespace:
        req["namespace"] = namespace
    return {"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": req}


def run(paths: list[str], *, output: OutputFormat, kubernetes_version: str, feature_gates: str | None = None,
        object_path: str | None = None, old_object_path: str | None = None, operation: str | None = None,
        user: str | None = None, groups: list[str] | None = None, namespace: str | None = None) -> int:
    """Run the bundle's request through the chain; return the exit code."""
    from crdtool.core.admission.chain import AdmitError, admit

    err = console(stderr=True)
    try:
        gates = parse_feature_gates(feature_gates)
        docs = _load(paths)
        if object_path or old_object_path:
            docs = [d for d in docs if d.get("kind") != "AdmissionReview"]
            docs.append(_build_request(object_path, old_object_path, operation, user, groups or [], namespace))
        result = admit(docs, kubernetes_version, gates)
    except (_UsageError, AdmitError) as exc:
        err.print(f"crdtool: {escape(str(exc))}")
        return 2
    if output is OutputFormat.json:
        write_json(result.to_json())
    else:
        _text(result)
    return 0 if result.allowed and not result.rejected else 1


def _text(result: Any) -> None:
    out = console()
    if result.allowed:
        out.print("[bold green]allowed[/]")
    else:
        out.print(f"[bold red]denied[/] ({result.code} {escape(result.reason)}): {escape(result.message)}")
    for w in result.warnings:
        out.print(f"warning: {escape(w)}")
    for key, value in result.audit_annotations.items():
        out.print(f"audit annotation {escape(key)}: {escape(value)}")
    if result.patched_object is not None:
        out.print("patched object:")
        import json

        out.print(escape(json.dumps(result.patched_object, indent=2)))
    for w in result.type_check_warnings:
        out.print(f"type check: ValidatingAdmissionPolicy {escape(w['policy'])}: {escape(w['fieldRef'])}: "
                  f"{escape(w['warning'])}")
    for r in result.rejected:
        for e in r.errors:
            out.print(f"refused at create, left out: {r.kind} {escape(r.name)}: {escape(e)}")
