"""What changes for clients and stored objects between two versions of a CRD.

:func:`compare_crds` lists the differences between an old and a new CRD
manifest that matter to the people and programs using the API, version by
version, each with a severity:

- ``error``: the apiserver rejects the update (an immutable field changed, a
  version still in ``status.storedVersions`` removed); the same conditions
  appear as errors of :func:`crdtool.core.crd.update.check_crd_update`;
- ``breaking``: existing clients or stored objects may fail (a version
  removed or no longer served, a field removed or newly required, a narrower
  enum or bound, a new pattern or CEL rule, pruning of data that used to be
  preserved, ...);
- ``warning``: behaviour changes that break nobody outright (the storage
  version moves, a default changes, server-side apply merge semantics);
- ``info``: additions and loosenings.

The semantics behind each verdict are the apiserver's: a value validation
added to a field is checked when an object is written, but *validation
ratcheting* (``CRDValidationRatcheting``, on by default since 1.30) tolerates
an invalid value while it is unchanged, so such a change breaks the next
write that touches the value (and, for ``required`` or ``maxProperties``, the
next write that touches the enclosing object); a field missing from the
schema is pruned when an object is next written (and, as the storage decoder
prunes too, disappears from reads); ``status.storedVersions`` and the
migration steps are those of the Kubernetes documentation ("Versions in
CustomResourceDefinitions": previous storage versions, upgrading existing
objects to a new stored version).

Paths: CRD-wide changes name the manifest field (``spec.scope``,
``spec.versions[v1beta1]``); schema changes name the custom resource's
field, JSONPath-style (``.spec.listeners[*].port``, ``.metadata.labels.*``
for map values, ``.`` for the root).

Pure: manifests in, frozen :class:`Change` records out.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Change", "SEVERITIES", "compare_crds", "compare_versions", "match_crds", "severity_rank"]

#: Severities, most severe first.
SEVERITIES = ("error", "breaking", "warning", "info")

Obj = Mapping[str, Any]


@dataclass(frozen=True)
class Change:
    """One difference between two CRDs.

    ``version``: the CRD version it concerns ("" for the whole CRD).
    ``path``: the manifest field (CRD-wide changes) or the custom resource
    field (schema changes, starting with ``.``). ``kind``: a stable
    kebab-case identifier (``field-removed``, ``enum-values-removed``, ...).
    ``severity``: one of :data:`SEVERITIES`. ``message``: one sentence for
    people.
    """

    version: str
    path: str
    kind: str
    severity: str
    message: str

    def to_dict(self) -> dict[str, str]:
        return {"version": self.version, "path": self.path, "kind": self.kind, "severity": self.severity, "message": self.message}


def severity_rank(severity: str) -> int:
    """0 for ``error`` ... 3 for ``info`` (lower is more severe)."""
    return SEVERITIES.index(severity)


# ============================================================================
# Entry points
# ============================================================================


def compare_crds(old: dict[str, Any], new: dict[str, Any], *, stored_versions: Sequence[str] | None = None) -> list[Change]:
    """The compatibility changes from the CRD manifest ``old`` to ``new``.

    In: two CRD manifests (``apiextensions.k8s.io/v1`` or ``v1beta1``; each
    is decoded with its own apiVersion's defaults and compared in the
    internal version, so a v1beta1 -> v1 rewrite alone shows no change), and
    the cluster's ``status.storedVersions`` of the old CRD (default: the old
    manifest's own, else its storage version), which decide whether removing
    a version is refused. Out: CRD-wide changes (identity, scope, names,
    versions, conversion), then per version present in both: schema changes
    in field order, subresources, printer columns and selectable fields.
    Never raises on valid CRDs; raises ValueError when either is not a CRD.
    """
    from crdtool.core.crd.manifest import is_crd

    if not is_crd(old) or not is_crd(new):
        raise ValueError("not an apiextensions.k8s.io/v1 or v1beta1 CustomResourceDefinition")
    old_i, new_i = _internal(old), _internal(new)
    stored = list(stored_versions) if stored_versions is not None else _default_stored_versions(old_i)
    out: list[Change] = []
    out.extend(_identity_changes(old_i, new_i))
    out.extend(_version_changes(old_i, new_i, stored))
    out.extend(_conversion_changes(old_i, new_i))
    new_versions = [_str(_map(v).get("name")) for v in _list(_map(new_i.get("spec")).get("versions"))]
    old_versions = {_str(_map(v).get("name")) for v in _list(_map(old_i.get("spec")).get("versions"))}
    for name in new_versions:
        if name in old_versions:
            out.extend(_schema_changes(old_i, new_i, name))
            out.extend(_subresource_changes(old_i, new_i, name))
            out.extend(_column_changes(old_i, new_i, name))
            out.extend(_selectable_field_changes(old_i, new_i, name))
    return out


def compare_versions(crd: dict[str, Any], old_version: str, new_version: str) -> list[Change]:
    """What changes for a client moving from ``old_version`` to ``new_version`` of one CRD.

    In: a CRD manifest (``apiextensions.k8s.io/v1`` or ``v1beta1``) and the names of two of its versions.
    Out: the per-version changes :func:`compare_crds` reports for a version present in both manifests
    (schema changes in field order, subresources, printer columns, selectable fields), as if the
    CRD's ``old_version`` had been rewritten into ``new_version``; each :class:`Change` has
    ``version`` = ``new_version``. The severities read as for a CRD update (``breaking``: a value of
    ``old_version`` may fail under ``new_version``). Raises ValueError when the manifest is not a CRD
    or lacks either version. Used by ``crdtool docs`` ("what changed between versions").
    """
    from crdtool.core.crd.manifest import is_crd

    if not is_crd(crd):
        raise ValueError("not an apiextensions.k8s.io/v1 or v1beta1 CustomResourceDefinition")
    new_i = _internal(crd)
    old_entry, new_entry = _version(new_i, old_version), _version(new_i, new_version)
    if not old_entry or not new_entry:
        missing = old_version if not old_entry else new_version
        raise ValueError(f"the CRD has no version {missing!r}")
    spec = dict(_map(new_i.get("spec")))
    spec["versions"] = [{**old_entry, "name": new_version}]
    old_i = {**new_i, "spec": spec}
    out: list[Change] = []
    out.extend(_schema_changes(old_i, new_i, new_version))
    out.extend(_subresource_changes(old_i, new_i, new_version))
    out.extend(_column_changes(old_i, new_i, new_version))
    out.extend(_selectable_field_changes(old_i, new_i, new_version))
    return out


def match_crds(
    olds: Sequence[dict[str, Any]], news: Sequence[dict[str, Any]]
) -> tuple[list[tuple[int, int]], list[int], list[int]]:
    """Pair the CRDs of an old and a new set of manifests.

    By ``metadata.name``; when each side holds a single CRD (``crdtool diff
    OLD NEW`` of one CRD each), the two are paired whatever their names. Out:
    ``(pairs of (old index, new index), unmatched old indices, unmatched new
    indices)``, each in input order.
    """
    new_by_name: dict[str, int] = {}
    for j, doc in enumerate(news):
        new_by_name.setdefault(_crd_name(doc), j)
    pairs: list[tuple[int, int]] = []
    used: set[int] = set()
    unmatched_old: list[int] = []
    for i, doc in enumerate(olds):
        found = new_by_name.get(_crd_name(doc))
        if found is not None and found not in used:
            pairs.append((i, found))
            used.add(found)
        else:
            unmatched_old.append(i)
    unmatched_new = [j for j in range(len(news)) if j not in used]
    if len(olds) == 1 and len(news) == 1 and unmatched_old and unmatched_new:
        pairs.append((unmatched_old[0], unmatched_new[0]))
        unmatched_old, unmatched_new = [], []
    pairs.sort()
    return pairs, unmatched_old, unmatched_new


def _crd_name(doc: Obj) -> str:
    spec = _map(doc.get("spec"))
    name = _map(doc.get("metadata")).get("name")
    if isinstance(name, str) and name:
        return name
    return f"{_str(_map(spec.get('names')).get('plural'))}.{_str(spec.get('group'))}"


# ============================================================================
# CRD-wide changes
# ============================================================================


def _identity_changes(old: Obj, new: Obj) -> Iterator[Change]:
    spec, old_spec = _map(new.get("spec")), _map(old.get("spec"))
    names, old_names = _map(spec.get("names")), _map(old_spec.get("names"))
    old_name, new_name = _crd_name(old), _crd_name(new)
    if old_name != new_name:
        yield Change(
            "", "metadata.name", "crd-renamed", "error",
            f"the CRD is {new_name}, not {old_name}: metadata.name is immutable, so this is another CRD; "
            f"kubectl apply creates {new_name} beside {old_name}, and objects stored under {old_name} are not moved",
        )
    group, old_group = _str(spec.get("group")), _str(old_spec.get("group"))
    if group != old_group:
        yield Change(
            "", "spec.group", "group-changed", "error",
            f"group changed from {old_group} to {group}: spec.group is immutable; clients must move to the new API "
            f"group and objects must be re-created in it",
        )
    for key, what in (("plural", "resource name"), ("kind", "kind")):
        value, old_value = _str(names.get(key)), _str(old_names.get(key))
        if value != old_value:
            yield Change(
                "", f"spec.names.{key}", f"{key}-changed", "error",
                f"names.{key} changed from {old_value} to {value}: the {what} is immutable once the CRD is established",
            )
    scope, old_scope = _str(spec.get("scope")), _str(old_spec.get("scope"))
    if scope != old_scope:
        yield Change(
            "", "spec.scope", "scope-changed", "error",
            f"scope changed from {old_scope} to {scope}: spec.scope is immutable once the CRD is established",
        )
    for key in ("singular", "listKind"):
        value, old_value = _str(names.get(key)), _str(old_names.get(key))
        if value != old_value:
            yield Change("", f"spec.names.{key}", f"{_kebab(key)}-changed", "info", f"names.{key} changed from {old_value or '(none)'} to {value or '(none)'}")
    for key, noun in (("shortNames", "short name"), ("categories", "category")):
        now = [_str(x) for x in _list(names.get(key))]
        before = [_str(x) for x in _list(old_names.get(key))]
        removed = [x for x in before if x not in now]
        added = [x for x in now if x not in before]
        if removed:
            yield Change(
                "", f"spec.names.{key}", f"{_kebab(key)}-removed", "warning",
                f"{noun} {_join(removed)} removed: `kubectl get {removed[0]}` and scripts using it stop working",
            )
        if added:
            yield Change("", f"spec.names.{key}", f"{_kebab(key)}-added", "info", f"{noun} {_join(added)} added")
    if old_spec.get("preserveUnknownFields") is True and spec.get("preserveUnknownFields") is not True:
        yield Change(
            "", "spec.preserveUnknownFields", "pruning-enabled", "breaking",
            "spec.preserveUnknownFields is no longer true: fields not specified in the schema are pruned "
            "when an object is read or written (mark subtrees with x-kubernetes-preserve-unknown-fields to keep them)",
        )


def _default_stored_versions(old: Obj) -> list[str]:
    stored = [_str(v) for v in _list(_map(old.get("status")).get("storedVersions"))]
    if stored:
        return stored
    for v in _list(_map(old.get("spec")).get("versions")):
        if _map(v).get("storage") is True:
            return [_str(_map(v).get("name"))]
    return []


def _storage_version(crd: Obj) -> str:
    for v in _list(_map(crd.get("spec")).get("versions")):
        if _map(v).get("storage") is True:
            return _str(_map(v).get("name"))
    return ""


def _migration_steps(version: str, storage: str) -> str:
    """The documentation's "Upgrade existing objects to a new stored version", for ``version``."""
    return (
        f"to drop {version}: (1) with {storage} as the storage version, rewrite every object so it is stored as "
        f"{storage} (run the storage version migrator, or read and write back each object unchanged, e.g. "
        f"`kubectl get <plural> -A -o json | kubectl replace -f -`); (2) remove {version} from the CRD's "
        f"status.storedVersions (`kubectl patch crd <name> --subresource=status --type=json "
        f"-p '[{{\"op\":\"replace\",\"path\":\"/status/storedVersions\",\"value\":[\"{storage}\"]}}]'`); "
        f"(3) then remove it from spec.versions"
    )


def _version_changes(old: Obj, new: Obj, stored: Sequence[str]) -> Iterator[Change]:
    old_versions = {_str(_map(v).get("name")): _map(v) for v in _list(_map(old.get("spec")).get("versions"))}
    new_versions = {_str(_map(v).get("name")): _map(v) for v in _list(_map(new.get("spec")).get("versions"))}
    new_storage, old_storage = _storage_version(new), _storage_version(old)
    for name, v in old_versions.items():
        if name in new_versions:
            continue
        path = f"spec.versions[{name}]"
        if name in stored:
            yield Change(
                name, path, "stored-version-removed", "error",
                f"version {name} removed while it is in status.storedVersions {list(stored)}: the apiserver rejects the "
                f"update, as objects may still be stored as {name}; {_migration_steps(name, new_storage or old_storage)}",
            )
        elif v.get("served") is True:
            yield Change(
                name, path, "version-removed", "breaking",
                f"version {name} removed: clients and manifests using {_api(new, name)} fail "
                f"(`no matches for kind`); if the cluster's status.storedVersions still lists {name}, the apiserver "
                f"rejects the update (give the cluster's list with --stored-versions)",
            )
        else:
            yield Change(name, path, "version-removed", "info", f"version {name} (not served) removed")
    for name, v in new_versions.items():
        path = f"spec.versions[{name}]"
        before = old_versions.get(name)
        if before is None:
            served = "served" if v.get("served") is True else "not served"
            yield Change(name, path, "version-added", "info", f"version {name} added ({served})")
            continue
        if before.get("served") is True and v.get("served") is not True:
            yield Change(
                name, f"{path}.served", "version-unserved", "breaking",
                f"version {name} is no longer served: clients and manifests using {_api(new, name)} fail "
                f"(`no matches for kind`); stored objects stay readable through the served versions",
            )
        elif before.get("served") is not True and v.get("served") is True:
            yield Change(name, f"{path}.served", "version-served", "info", f"version {name} is now served")
        if v.get("deprecated") is True and before.get("deprecated") is not True:
            warning = v.get("deprecationWarning")
            text = f" with the warning {json.dumps(warning, ensure_ascii=False)}" if isinstance(warning, str) else " (clients get a deprecation warning)"
            yield Change(name, f"{path}.deprecated", "version-deprecated", "info", f"version {name} is now deprecated{text}")
        elif before.get("deprecated") is True and v.get("deprecated") is not True:
            yield Change(name, f"{path}.deprecated", "version-undeprecated", "info", f"version {name} is no longer deprecated")
    if new_storage and old_storage and new_storage != old_storage:
        after = list(stored) + ([new_storage] if new_storage not in stored else [])
        yield Change(
            new_storage, f"spec.versions[{new_storage}].storage", "storage-version-changed", "warning",
            f"the storage version moves from {old_storage} to {new_storage}: new and updated objects are stored as "
            f"{new_storage}, existing ones stay stored as {old_storage} until written again, and "
            f"status.storedVersions becomes {after}; the conversion between them must be lossless; "
            f"{_migration_steps(old_storage, new_storage)}",
        )


def _api(crd: Obj, version: str) -> str:
    return f"{_str(_map(crd.get('spec')).get('group'))}/{version}"


def _conversion_changes(old: Obj, new: Obj) -> Iterator[Change]:
    conv, old_conv = _map(_map(new.get("spec")).get("conversion")), _map(_map(old.get("spec")).get("conversion"))
    strategy, old_strategy = _str(conv.get("strategy")) or "None", _str(old_conv.get("strategy")) or "None"
    if strategy != old_strategy:
        served = [v for v in _list(_map(new.get("spec")).get("versions")) if _map(v).get("served") is True]
        if strategy != "Webhook" and len(served) <= 1:
            yield Change(
                "", "spec.conversion.strategy", "conversion-strategy-changed", "info",
                f"conversion strategy changed from {old_strategy} to {strategy}: with one served version no conversion is needed",
            )
            return
        if strategy == "Webhook":
            yield Change(
                "", "spec.conversion.strategy", "conversion-strategy-changed", "warning",
                "conversion strategy changed from None to Webhook: every read or write at a version other than the "
                "stored one now calls the webhook, which must be deployed and reachable first",
            )
        else:
            yield Change(
                "", "spec.conversion.strategy", "conversion-strategy-changed", "breaking",
                f"conversion strategy changed from {old_strategy} to {strategy}: objects are served at other versions "
                "with only apiVersion changed; fields that differ between versions are lost or pruned",
            )
        return
    if strategy == "Webhook":
        config, old_config = _map(conv.get("webhookClientConfig")), _map(old_conv.get("webhookClientConfig"))
        if _without(config, "caBundle") != _without(old_config, "caBundle"):
            yield Change("", "spec.conversion.webhook.clientConfig", "conversion-webhook-changed", "info", "the conversion webhook's address changed")
        review, old_review = _list(conv.get("conversionReviewVersions")), _list(old_conv.get("conversionReviewVersions"))
        if review != old_review:
            yield Change(
                "", "spec.conversion.webhook.conversionReviewVersions", "conversion-review-versions-changed", "info",
                f"conversionReviewVersions changed from {old_review} to {review}",
            )


# ============================================================================
# Per-version changes
# ============================================================================


def _version(crd: Obj, name: str) -> Obj:
    for v in _list(_map(crd.get("spec")).get("versions")):
        if _map(v).get("name") == name:
            return _map(v)
    return {}


def _per_version(crd: Obj, name: str, key: str) -> Any:
    """``spec.<key>`` when set at the top level (internal type), else the version's."""
    spec = _map(crd.get("spec"))
    if spec.get(key) is not None:
        return spec.get(key)
    return _version(crd, name).get(key)


def _schema_for(crd: Obj, name: str) -> dict[str, Any] | None:
    validation = _map(_per_version(crd, name, "validation" if _map(crd.get("spec")).get("validation") is not None else "schema"))
    schema = validation.get("openAPIV3Schema")
    return schema if isinstance(schema, dict) else None


def _schema_changes(old: Obj, new: Obj, name: str) -> Iterator[Change]:
    old_schema, new_schema = _schema_for(old, name), _schema_for(new, name)
    old_preserve = _map(old.get("spec")).get("preserveUnknownFields") is True
    new_preserve = _map(new.get("spec")).get("preserveUnknownFields") is True
    if new_schema is None:
        if old_schema is not None:
            yield Change(name, ".", "schema-removed", "warning", "the schema was removed: nothing is validated or defaulted any more")
        return
    if old_schema is None:
        if not new_preserve:
            yield Change(
                name, ".", "schema-added", "breaking",
                "a schema was added where there was none: fields it does not specify are pruned when objects are read "
                "or written, and values it rejects fail on their next change",
            )
        else:
            yield Change(name, ".", "schema-added", "warning", "a schema was added where there was none: values it rejects fail on their next change")
        return
    yield from _node_changes(name, old_schema, new_schema, ".", old_preserve, new_preserve, True)


def _node_changes(
    version: str, old: Obj, new: Obj, path: str, old_preserve: bool, new_preserve: bool, root: bool
) -> Iterator[Change]:
    """Changes at one schema node (``old`` and ``new`` describe the same field), then its children."""

    def change(kind: str, severity: str, message: str, at: str = path) -> Change:
        return Change(version, at, kind, severity, message)

    old_types, new_types = _types(old), _types(new)
    if old_types != new_types and old_types and new_types:
        yield change(
            "type-changed", "breaking",
            f"type changed from {_type_text(old_types)} to {_type_text(new_types)}: existing values fail on their next change, "
            "and clients decoding the old type break",
        )
    elif not old_types and new_types and not root:
        yield change("type-added", "breaking", f"type {_type_text(new_types)} is now required of values that had no type")
    if old.get("nullable") is True and new.get("nullable") is not True:
        yield change(
            "nullable-removed", "breaking",
            "nullable removed: a null is no longer accepted (nulls are dropped when decoded, or replaced by the default)",
        )
    elif old.get("nullable") is not True and new.get("nullable") is True:
        yield change("nullable-added", "info", "nullable added: null is now accepted")
    yield from _enum_changes(old, new, change)
    yield from _bound_changes(old, new, change)
    yield from _string_changes(old, new, new_types, change)
    yield from _default_changes(old, new, change)
    yield from _junctor_changes(old, new, change)
    yield from _extension_changes(old, new, change)
    yield from _rule_changes(old, new, change)

    # x-kubernetes-preserve-unknown-fields keeps the unknown fields of this node only (not of its
    # specified children); spec.preserveUnknownFields (v1beta1) keeps them everywhere and is
    # reported once, as pruning-enabled.
    old_flag = old.get("x-kubernetes-preserve-unknown-fields") is True
    new_flag = new.get("x-kubernetes-preserve-unknown-fields") is True
    new_preserve_here = new_preserve or new_flag
    if old_flag and not new_flag and not new_preserve and _is_object(new, new_types):
        yield change(
            "preserve-unknown-fields-removed", "breaking",
            "x-kubernetes-preserve-unknown-fields removed: fields below that the schema does not specify are pruned "
            "when an object is next written (and no longer returned on reads)",
        )
    elif not old_flag and new_flag and not old_preserve and _is_object(new, new_types):
        yield change("preserve-unknown-fields-added", "info", "x-kubernetes-preserve-unknown-fields added: unknown fields below are kept")

    old_required = [_str(r) for r in _list(old.get("required"))]
    new_required = [_str(r) for r in _list(new.get("required"))]
    old_props, new_props = _map(old.get("properties")), _map(new.get("properties"))
    for field in new_required:
        if field not in old_required:
            if path == ".":
                consequence = (
                    "creates and updates of objects without it fail, even updates that change nothing (validation "
                    "ratcheting never spares the object's root, whose metadata the schema does not describe)"
                )
            else:
                consequence = (
                    f"creates without it fail, and so does any update of an object that lacks it and changes something "
                    f"in {path} (validation ratcheting only spares unchanged values)"
                )
            yield change("required-added", "breaking", f"{field} is now required: {consequence}", _child(path, field))
    for field in old_required:
        if field not in new_required:
            yield change("required-removed", "info", f"{field} is no longer required", _child(path, field))

    for field, sub in old_props.items():
        if field in new_props:
            continue
        if new_preserve_here:
            yield change(
                "field-removed", "warning",
                f"field {field} removed from the schema; it is kept (x-kubernetes-preserve-unknown-fields) but no longer validated or defaulted",
                _child(path, field),
            )
        else:
            yield change(
                "field-removed", "breaking",
                f"field {field} removed: its data is pruned when an object is next written (and is no longer returned "
                "on reads), and requests that set it fail with kubectl's strict field validation",
                _child(path, field),
            )
    for field, sub in new_props.items():
        if field not in old_props:
            if field not in new_required:
                yield change("field-added", "info", f"field {field} added", _child(path, field))
            continue
        if isinstance(sub, dict) and isinstance(old_props[field], dict):
            yield from _node_changes(version, old_props[field], sub, _child(path, field), old_preserve, new_preserve, False)

    old_items, new_items = old.get("items"), new.get("items")
    if isinstance(old_items, dict) and isinstance(new_items, dict):
        yield from _node_changes(version, old_items, new_items, (path if path != "." else "") + "[*]", old_preserve, new_preserve, False)
    old_ap, new_ap = old.get("additionalProperties"), new.get("additionalProperties")
    map_path = (path if path != "." else "") + ".*"
    if isinstance(old_ap, dict) and isinstance(new_ap, dict):
        yield from _node_changes(version, old_ap, new_ap, map_path, old_preserve, new_preserve, False)
    elif isinstance(old_ap, dict) and not isinstance(new_ap, dict) and not new_props:
        if not new_preserve_here:
            yield change("map-values-removed", "breaking", "map values (additionalProperties) are no longer specified: they are pruned when an object is next written")
    elif not isinstance(old_ap, dict) and isinstance(new_ap, dict) and old_props and not new_props:
        yield change("properties-to-map", "breaking", "the fixed properties became a map (additionalProperties)")


def _types(s: Obj) -> tuple[str, ...]:
    if s.get("x-kubernetes-int-or-string") is True:
        return ("integer", "string")
    t = s.get("type")
    return (t,) if isinstance(t, str) and t else ()


def _type_text(types: tuple[str, ...]) -> str:
    return "int-or-string" if types == ("integer", "string") else types[0]


def _is_object(s: Obj, types: tuple[str, ...]) -> bool:
    return types in (("object",), ()) and s.get("x-kubernetes-int-or-string") is not True


def _enum_changes(old: Obj, new: Obj, change: Any) -> Iterator[Change]:
    old_enum, new_enum = old.get("enum"), new.get("enum")
    if not isinstance(new_enum, list) or not new_enum:
        if isinstance(old_enum, list) and old_enum:
            yield change("enum-removed", "info", "the enum was removed: any value of the type is accepted")
        return
    if not isinstance(old_enum, list) or not old_enum:
        yield change(
            "enum-added", "breaking",
            f"values are now restricted to {_values(new_enum)}: other values fail on their next change",
        )
        return
    removed = [v for v in old_enum if not any(_same_json(v, w) for w in new_enum)]
    added = [v for v in new_enum if not any(_same_json(v, w) for w in old_enum)]
    if removed:
        yield change(
            "enum-values-removed", "breaking",
            f"enum values {_values(removed)} removed: objects holding them fail when the value changes, and clients sending them fail",
        )
    if added:
        yield change("enum-values-added", "info", f"enum values {_values(added)} added: clients that switch over the values may meet new ones")


#: (keyword, what is bounded, direction): +1 when a larger value tightens (a minimum), -1 when a smaller one does.
_BOUNDS = (
    ("minimum", "minimum", +1),
    ("maximum", "maximum", -1),
    ("minLength", "minLength", +1),
    ("maxLength", "maxLength", -1),
    ("minItems", "minItems", +1),
    ("maxItems", "maxItems", -1),
    ("minProperties", "minProperties", +1),
    ("maxProperties", "maxProperties", -1),
)


def _bound_changes(old: Obj, new: Obj, change: Any) -> Iterator[Change]:
    for key, word, direction in _BOUNDS:
        a, b = _number(old.get(key)), _number(new.get(key))
        excl_key = {"minimum": "exclusiveMinimum", "maximum": "exclusiveMaximum"}.get(key)
        a_excl = excl_key is not None and old.get(excl_key) is True
        b_excl = excl_key is not None and new.get(excl_key) is True
        if a == b and a_excl == b_excl:
            continue
        if b is None:
            if a is not None:
                yield change(f"{_kebab(key)}-removed", "info", f"{word} {_fmt(a)} removed")
            continue
        shown = f"{_fmt(b)} (exclusive)" if b_excl else _fmt(b)
        if a is None:
            yield change(f"{_kebab(key)}-added", "breaking", f"{word} {shown} added: {_bound_consequence(key)}")
            continue
        tighter = (b - a) * direction > 0 or (a == b and b_excl and not a_excl)
        verb = {+1: ("raised", "lowered"), -1: ("lowered", "raised")}[direction][0 if tighter else 1]
        if a == b:
            verb = "made exclusive" if b_excl else "made inclusive"
        if tighter:
            yield change(f"{_kebab(key)}-tightened", "breaking", f"{word} {verb} from {_fmt(a)} to {shown}: {_bound_consequence(key)}")
        else:
            yield change(f"{_kebab(key)}-loosened", "info", f"{word} {verb} from {_fmt(a)} to {shown}")
    a, b = _number(old.get("multipleOf")), _number(new.get("multipleOf"))
    if a != b:
        if b is None:
            yield change("multiple-of-removed", "info", f"multipleOf {_fmt(a)} removed")
        elif a is not None and b != 0 and (a / b).is_integer():
            yield change("multiple-of-loosened", "info", f"multipleOf changed from {_fmt(a)} to {_fmt(b)}")
        else:
            before = f" (was {_fmt(a)})" if a is not None else ""
            yield change("multiple-of-tightened", "breaking", f"values must now be a multiple of {_fmt(b)}{before}: {_bound_consequence('multipleOf')}")


def _bound_consequence(key: str) -> str:
    if key in ("minProperties", "maxProperties"):
        return "objects outside it fail when any of their entries changes"
    if key in ("minItems", "maxItems"):
        return "lists outside it fail when they change"
    return "values outside it fail on their next change"


def _string_changes(old: Obj, new: Obj, new_types: tuple[str, ...], change: Any) -> Iterator[Change]:
    from crdtool.core.schema.formats import effective_format

    a, b = _str(old.get("pattern")), _str(new.get("pattern"))
    if a != b:
        if not b:
            yield change("pattern-removed", "info", f"pattern {_code(a)} removed")
        elif not a:
            yield change("pattern-added", "breaking", f"pattern {_code(b)} added: values not matching it fail on their next change")
        else:
            yield change(
                "pattern-changed", "breaking",
                f"pattern changed from {_code(a)} to {_code(b)}: values matching only the old pattern fail on their next change",
            )
    a, b = _str(old.get("format")), _str(new.get("format"))
    if a != b:
        validated = bool(b) and bool(effective_format(new_types, b))
        if not b:
            yield change("format-removed", "info", f"format {a} removed")
        elif not validated:
            yield change("format-changed", "info", f"format {'changed to' if a else 'set to'} {b}, which the apiserver does not validate")
        elif not a:
            yield change("format-added", "breaking", f"format {b} added: values that are not a valid {b} fail on their next change")
        else:
            yield change("format-changed", "breaking", f"format changed from {a} to {b}: values that are not a valid {b} fail on their next change")


def _default_changes(old: Obj, new: Obj, change: Any) -> Iterator[Change]:
    a, b = old.get("default"), new.get("default")
    if a is None and b is None or (a is not None and b is not None and _same_json(a, b)):
        return
    if a is None:
        yield change(
            "default-added", "info",
            f"default {_json(b)} added: objects without the field get it when read and when next written",
        )
    elif b is None:
        yield change(
            "default-removed", "warning",
            f"default {_json(a)} removed: new objects no longer get it; stored objects that got it keep it",
        )
    else:
        yield change(
            "default-changed", "warning",
            f"default changed from {_json(a)} to {_json(b)}: objects without the field read as {_json(b)} now, "
            "while those written with the old default keep it",
        )


def _junctor_changes(old: Obj, new: Obj, change: Any) -> Iterator[Change]:
    for key in ("allOf", "anyOf", "oneOf", "not"):
        a, b = old.get(key), new.get(key)
        if (a is None) == (b is None) and (a is None or _same_json(a, b)):
            continue
        if b is None:
            yield change(f"{_kebab(key)}-removed", "info", f"{key} removed")
        elif a is None:
            yield change(f"{_kebab(key)}-added", "breaking", f"{key} added: values it rejects fail on their next change")
        else:
            yield change(f"{_kebab(key)}-changed", "breaking", f"{key} changed: values it now rejects fail on their next change")


def _extension_changes(old: Obj, new: Obj, change: Any) -> Iterator[Change]:
    a, b = _str(old.get("x-kubernetes-list-type")) or "atomic", _str(new.get("x-kubernetes-list-type")) or "atomic"
    is_list = _types(new) == ("array",) or isinstance(new.get("items"), dict)
    if a != b and is_list:
        if b == "atomic":
            yield change(
                "list-type-changed", "warning",
                f"x-kubernetes-list-type changed from {a} to atomic: server-side apply replaces the whole list instead of merging items",
            )
        elif b == "set":
            yield change(
                "list-type-changed", "breaking",
                f"x-kubernetes-list-type changed from {a} to set: lists with duplicate items are rejected when they change",
            )
        else:
            keys = [_str(k) for k in _list(new.get("x-kubernetes-list-map-keys"))]
            yield change(
                "list-type-changed", "breaking",
                f"x-kubernetes-list-type changed from {a} to map (keys {keys}): lists with duplicate keys are rejected "
                "when they change, and server-side apply merges items by key",
            )
    elif a == b == "map":
        ka = [_str(k) for k in _list(old.get("x-kubernetes-list-map-keys"))]
        kb = [_str(k) for k in _list(new.get("x-kubernetes-list-map-keys"))]
        if ka != kb:
            yield change(
                "list-map-keys-changed", "breaking",
                f"x-kubernetes-list-map-keys changed from {ka} to {kb}: items are identified differently (uniqueness, "
                "server-side apply merges, CEL oldSelf correlation)",
            )
    ma, mb = _str(old.get("x-kubernetes-map-type")) or "granular", _str(new.get("x-kubernetes-map-type")) or "granular"
    if ma != mb:
        yield change(
            "map-type-changed", "warning",
            f"x-kubernetes-map-type changed from {ma} to {mb}: server-side apply {'replaces the whole map' if mb == 'atomic' else 'merges map entries'}",
        )
    if (old.get("x-kubernetes-embedded-resource") is True) != (new.get("x-kubernetes-embedded-resource") is True):
        now = new.get("x-kubernetes-embedded-resource") is True
        yield change(
            "embedded-resource-changed", "breaking",
            "x-kubernetes-embedded-resource " + ("added: the value must now be a Kubernetes object (apiVersion, kind, metadata)" if now else "removed"),
        )


def _rule_key(rule: Obj) -> str:
    return _str(rule.get("rule"))


def _rule_changes(old: Obj, new: Obj, change: Any) -> Iterator[Change]:
    old_rules = [_map(r) for r in _list(old.get("x-kubernetes-validations"))]
    new_rules = [_map(r) for r in _list(new.get("x-kubernetes-validations"))]
    old_texts = [_rule_key(r) for r in old_rules]
    new_texts = [_rule_key(r) for r in new_rules]
    removed = [i for i, t in enumerate(old_texts) if t not in new_texts]
    added = [j for j, t in enumerate(new_texts) if t not in old_texts]
    # a rule removed and one added at the same position: one rule changed
    changed = [(i, i) for i in removed if i in added]
    removed = [i for i in removed if (i, i) not in changed]
    added = [j for j in added if (j, j) not in changed]
    for i, j in changed:
        yield change(
            "cel-rule-changed", "breaking",
            f"CEL rule changed from {_code(old_texts[i])} to {_code(new_texts[j])}{_transition(new_rules[j])}: "
            "it cannot be told whether it is stricter; objects it now rejects fail on their next change",
        )
    for j in added:
        yield change(
            "cel-rule-added", "breaking",
            f"CEL rule added (tightening): {_code(new_texts[j])}{_message(new_rules[j])}{_transition(new_rules[j])}",
        )
    for i in removed:
        yield change("cel-rule-removed", "info", f"CEL rule removed (loosening): {_code(old_texts[i])}")
    for j, rule in enumerate(new_rules):
        text = new_texts[j]
        if text not in old_texts:
            continue
        before = old_rules[old_texts.index(text)]
        diffs = [k for k in ("message", "messageExpression", "reason", "fieldPath", "optionalOldSelf") if before.get(k) != rule.get(k)]
        if diffs:
            severity = "warning" if "optionalOldSelf" in diffs else "info"
            yield change(
                "cel-rule-message-changed" if set(diffs) <= {"message", "messageExpression"} else "cel-rule-details-changed",
                severity,
                f"CEL rule {_code(text)}: {', '.join(diffs)} changed",
            )


def _message(rule: Obj) -> str:
    message = rule.get("message")
    return f" ({json.dumps(message, ensure_ascii=False)})" if isinstance(message, str) and message else ""


def _mentions_old_self(text: str) -> bool:
    """Does the parsed rule reference the variable ``oldSelf`` (a transition rule)? The one test
    ``docs``, ``explain`` and ``lint`` use too (:func:`crdtool.core.crdcel.idioms.uses_old_self`)."""
    from crdtool.core.crdcel.idioms import uses_old_self

    return uses_old_self(text)


def _transition(rule: Obj) -> str:
    text = _rule_key(rule)
    if not _mentions_old_self(text):
        return ""
    if rule.get("optionalOldSelf") is True:
        return "; a transition rule (oldSelf, optionalOldSelf): checked on creates too"
    return "; a transition rule (oldSelf): checked on updates only, never ratcheted"


def _subresource_changes(old: Obj, new: Obj, name: str) -> Iterator[Change]:
    sub, old_sub = _map(_per_version(new, name, "subresources")), _map(_per_version(old, name, "subresources"))
    path = f"spec.versions[{name}].subresources"
    has, had = sub.get("status") is not None, old_sub.get("status") is not None
    if had and not has:
        yield Change(
            name, f"{path}.status", "status-subresource-removed", "breaking",
            "the status subresource was removed: /status requests fail, and status is now written with the main resource",
        )
    elif has and not had:
        yield Change(
            name, f"{path}.status", "status-subresource-added", "warning",
            "the status subresource was added: status changes sent with the main resource are now ignored, controllers "
            "must write /status; metadata.generation now counts spec changes only",
        )
    scale, old_scale = sub.get("scale"), old_sub.get("scale")
    if isinstance(old_scale, dict) and not isinstance(scale, dict):
        yield Change(name, f"{path}.scale", "scale-subresource-removed", "breaking", "the scale subresource was removed: `kubectl scale` and autoscalers stop working")
    elif isinstance(scale, dict) and not isinstance(old_scale, dict):
        yield Change(name, f"{path}.scale", "scale-subresource-added", "info", "the scale subresource was added")
    elif isinstance(scale, dict) and isinstance(old_scale, dict) and not _same_json(scale, old_scale):
        yield Change(name, f"{path}.scale", "scale-subresource-changed", "warning", f"the scale subresource changed from {_json(old_scale)} to {_json(scale)}")


def _column_changes(old: Obj, new: Obj, name: str) -> Iterator[Change]:
    cols = {_str(_map(c).get("name")): _map(c) for c in _list(_per_version(new, name, "additionalPrinterColumns"))}
    old_cols = {_str(_map(c).get("name")): _map(c) for c in _list(_per_version(old, name, "additionalPrinterColumns"))}
    path = f"spec.versions[{name}].additionalPrinterColumns"
    removed = [c for c in old_cols if c not in cols]
    added = [c for c in cols if c not in old_cols]
    changed = [c for c in cols if c in old_cols and not _same_json(cols[c], old_cols[c])]
    if removed:
        yield Change(name, path, "printer-columns-removed", "info", f"printer columns {_join(removed)} removed from `kubectl get`")
    if added:
        yield Change(name, path, "printer-columns-added", "info", f"printer columns {_join(added)} added to `kubectl get`")
    if changed:
        yield Change(name, path, "printer-columns-changed", "info", f"printer columns {_join(changed)} changed")


def _selectable_field_changes(old: Obj, new: Obj, name: str) -> Iterator[Change]:
    paths = [_str(_map(f).get("jsonPath")) for f in _list(_per_version(new, name, "selectableFields"))]
    old_paths = [_str(_map(f).get("jsonPath")) for f in _list(_per_version(old, name, "selectableFields"))]
    path = f"spec.versions[{name}].selectableFields"
    removed = [p for p in old_paths if p not in paths]
    added = [p for p in paths if p not in old_paths]
    if removed:
        yield Change(
            name, path, "selectable-fields-removed", "info",
            f"selectable fields {_join(removed)} removed: `--field-selector` on them fails",
        )
    if added:
        yield Change(name, path, "selectable-fields-added", "info", f"selectable fields {_join(added)} added")


# ============================================================================
# Helpers
# ============================================================================


def _internal(doc: dict[str, Any]) -> dict[str, Any]:
    from crdtool.core.crd.conversion import to_internal
    from crdtool.core.crd.decode import decode_crd
    from crdtool.core.crd.defaults import default_crd

    decoded, _ = decode_crd(doc)
    return to_internal(default_crd(decoded))


_SIMPLE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-$@")


def _child(path: str, field: str) -> str:
    step = f".{field}" if field and all(c in _SIMPLE for c in field) else f"[{json.dumps(field)}]"
    return (path if path != "." else "") + step


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return value


def _fmt(value: float | None) -> str:
    if value is None:
        return "(none)"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return str(value)


def _same_json(a: Any, b: Any) -> bool:
    """Equal as JSON values, telling ints from floats (as the apiserver's decoding does)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same_json(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same_json(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def _json(value: Any) -> str:
    try:
        return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def _code(text: str) -> str:
    """Rule text or a pattern shown as written (in backticks, which neither CEL nor RE2 uses)."""
    return f"`{text}`"


def _values(values: Sequence[Any]) -> str:
    return "[" + ", ".join(_json(v) for v in values) + "]"


def _join(items: Sequence[str]) -> str:
    return ", ".join(items)


def _without(m: Obj, key: str) -> dict[str, Any]:
    return {k: v for k, v in m.items() if k != key}


def _kebab(name: str) -> str:
    return "".join("-" + c.lower() if c.isupper() else c for c in name)


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


_EMPTY: Mapping[str, Any] = {}


def _map(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else _EMPTY


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
