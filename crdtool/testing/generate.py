"""Cases found for you: ``crdtool test --generate CRD`` writes a starter suite for a CRD's CEL rules.

For each ``x-kubernetes-validations`` rule of the CRD's storage version, a search with the schema strategies
behind ``fuzz-roundtrip`` (:mod:`crdtool.core.fuzz.strategies`: schema-valid objects, built by construction)
looks for a small object the rule accepts and one it rejects — for a transition rule (``oldSelf``), an
old/new pair judged as an UPDATE — and hypothesis shrinks each to a minimal one. The search reaches the rule's
node directly (the value there is drawn from the node's own strategy, its parents filled in when absent). A
candidate counts only when crdtool's validator confirms it: a passing case has no error at all and the rule
evaluated to true; a failing case's rule evaluated to false and every error is a CEL rule's (no schema error
hides the rules), each error written in the expectation.

The suite is re-run before it is returned: a case that would not pass as written is dropped and said so. Rules
no search could exercise are listed with the reason (it does not compile, no example in the budget, ...).
"""

from __future__ import annotations

import copy
import os
import random
import re
from dataclasses import dataclass, field
from typing import Any

__all__ = ["GeneratedSuite", "SHRINK_STEPS", "generate_suite"]

#: The successful shrinks of one search's find (hypothesis's ``MAX_SHRINKS``, 500 by its default): a bound on
#: shrinking that does not depend on time (hypothesis's own five-minute limit stays as the last resort).
SHRINK_STEPS = 100

_STEP = re.compile(r"\.properties\[([^\]]*)\]|\.items|\.additionalProperties|\.allOf\[\d+\]|\.anyOf\[\d+\]|\.oneOf\[\d+\]")


@dataclass
class GeneratedSuite:
    """The suite (a dict in the ``*.crdtest.yaml`` shape), what could not be exercised and what was dropped."""

    suite: dict[str, Any]
    exercised: list[str] = field(default_factory=list)
    not_exercised: list[tuple[str, str]] = field(default_factory=list)
    dropped: list[tuple[str, str]] = field(default_factory=list)
    rules: int = 0


def _steps(path: str) -> list[tuple[str, str]] | None:
    """The data steps from the schema root to a rule's node: ``("prop", name)``, ``("item", "")``, ``("map", "")``."""
    marker = "openAPIV3Schema"
    tail = path[path.index(marker) + len(marker):] if marker in path else ""
    tail = tail.rsplit(".x-kubernetes-validations", 1)[0]
    out: list[tuple[str, str]] = []
    pos = 0
    while pos < len(tail):
        m = _STEP.match(tail, pos)
        if m is None:
            return None
        text = m.group(0)
        if text.startswith(".properties"):
            out.append(("prop", m.group(1)))
        elif text == ".items":
            out.append(("item", ""))
        elif text == ".additionalProperties":
            out.append(("map", ""))
        elif not text.startswith(".allOf"):
            return None  # a branch of anyOf/oneOf: not every value meets it
        pos = m.end()
    return out


def _child(node: Any, step: tuple[str, str]) -> Any:
    if node is None:
        return None
    kind, name = step
    if kind == "prop":
        return node.properties.get(name)
    if kind == "item":
        return node.items
    ap = node.additional_properties
    return ap if not isinstance(ap, bool) else None


def _targeted(base: dict[str, Any], root: Any, steps: list[tuple[str, str]], name: str) -> Any:
    """Copies of ``base`` whose value at ``steps`` is drawn from that node's strategy (parents filled in)."""
    from hypothesis import strategies as st

    from crdtool.core.fuzz.strategies import value_strategy

    # built once: a strategy's construction (validation, emptiness checks) costs more than its draws
    strategies: list[Any] = []
    node = root
    for step in steps:
        node = _child(node, step)
        strategies.append(value_strategy(node))

    @st.composite
    def draw_object(draw: Any) -> dict[str, Any]:
        obj = copy.deepcopy(base)
        obj["metadata"] = {**obj.get("metadata", {}), "name": name}
        container: Any = obj
        for i, step in enumerate(steps):
            strategy = strategies[i]
            last = i == len(steps) - 1
            kind, key = step
            if kind == "prop":
                if not isinstance(container, dict):
                    break
                if last or not isinstance(container.get(key), (dict, list)):
                    container[key] = draw(strategy)
                container = container[key]
            elif kind == "item":
                if not isinstance(container, list):
                    break
                if not container or last:
                    value = draw(strategy)
                    if container:
                        container[0] = value
                    else:
                        container.append(value)
                container = container[0]
            else:
                if not isinstance(container, dict):
                    break
                if last:
                    container.clear()
                if not container:
                    container["key"] = draw(strategy)
                container = next(iter(container.values()))
        return obj

    return draw_object()


def _replace_at(obj: dict[str, Any], steps: list[tuple[str, str]], value: Any) -> dict[str, Any] | None:
    out = copy.deepcopy(obj)
    container: Any = out
    for i, (kind, key) in enumerate(steps):
        last = i == len(steps) - 1
        if kind == "prop":
            if not isinstance(container, dict) or key not in container:
                return None
            if last:
                container[key] = value
            container = container[key]
        elif kind == "item":
            if not isinstance(container, list) or not container:
                return None
            if last:
                container[0] = value
            container = container[0]
        else:
            if not isinstance(container, dict) or not container:
                return None
            first = next(iter(container))
            if last:
                container[first] = value
            container = container[first]
    return out


def _search(find: Any, strategy: Any, predicate: Any, opts: Any, rnd: Any) -> Any:
    """``hypothesis.find`` of ``predicate``, answered once per candidate (hypothesis may ask again about a value
    it has seen, and requires the same answer): the shrunk example, or ``NoSuchExample``. Bounded by
    ``opts.max_examples`` and a number of shrinks, never by time: the same seed gives the same example on an
    idle machine and on a loaded one."""
    import json

    seen: dict[str, bool] = {}

    def check(value: Any) -> bool:
        key = json.dumps(value, sort_keys=True, default=str)
        if key not in seen:
            seen[key] = bool(predicate(value))
        return seen[key]

    return find(strategy, check, settings=opts, random=rnd)


def _outcome(verdict: Any, rule: Any) -> tuple[str | None, bool]:
    """(the rule's outcome on the object, every error is a CEL rule's: no schema or decoding error)."""
    outcome = None
    from_rules = set()
    for r, _, result, err in verdict.events:
        if r is rule and result in ("pass", "fail", "error") and outcome != "fail":
            outcome = result
        if err is not None and result in ("fail", "error"):
            from_rules.add(id(err))
    only_rules = bool(verdict.errors) and all(id(e) in from_rules for e in verdict.errors)
    return outcome, only_rules


def generate_suite(crd: dict[str, Any], crd_path: str, output_path: str | None = None, *, seed: int = 0,
                   max_examples: int = 100, version: str | None = None) -> GeneratedSuite:
    """A starter suite for ``crd``'s CEL rules (its storage version, or ``version``).

    ``crd_path`` is written in the suite's ``crds`` (relative to ``output_path``'s directory when given).
    Each search stops after ``max_examples`` candidates (then shrinks its find, at most :data:`SHRINK_STEPS`
    shrinks): no time budget, so a ``seed`` gives the same suite on every run, whatever the machine's load
    (hypothesis runs without an example database; its storage directory is the caller's to set). Raises
    ``ValueError`` when the CRD has no such version, no schema, or no valid object can be found to start from,
    and when the apiserver refuses to create the CRD (:meth:`~crdtool.testing.runner.CrdEntry.refusal`).
    """
    from hypothesis import HealthCheck, Phase, find, settings
    from hypothesis.errors import NoSuchExample, Unsatisfiable

    from crdtool.core.fuzz import versions_from_crd
    from crdtool.core.fuzz.properties import engine_constant
    from crdtool.core.fuzz.strategies import object_strategy
    from crdtool.testing.releases import DEFAULT_RELEASE
    from crdtool.testing.runner import CrdEntry, _judge
    from crdtool.testing.suite import Expectation, TestCase
    from crdtool.yaml import Document

    entry = CrdEntry(Document(crd_path, 0, 1, crd))
    refused = entry.refusal(DEFAULT_RELEASE)
    if refused:  # crdtool test would not run a case against it
        raise ValueError(f"{crd_path}: the apiserver of Kubernetes {DEFAULT_RELEASE} refuses to create this CRD: "
                         + "; ".join(refused))
    prepared = entry.prepared()
    versions = {v.version: v for v in versions_from_crd(crd)}
    if version is None:
        version = next((v.name for v in prepared.versions if v.storage), None) or (prepared.versions[0].name if prepared.versions else None)
    ver = prepared.version(version or "")
    vs = versions.get(version or "")
    if ver is None or vs is None or ver.structural is None:
        raise ValueError(f"{crd_path}: no version {version!r} with a schema")
    index = entry.index(ver.name)
    rules = {key: item for key, item in index.items.items() if item.kind == "rule"}
    rule_by_id = {id(r): r for r in index._keep}
    by_key = {key: rule_by_id[rule_id] for rule_id, key in index.rules.items()}
    crds_ref = os.path.relpath(crd_path, os.path.dirname(output_path) or ".") if output_path else crd_path
    out = GeneratedSuite({"crds": [crds_ref], "cases": []}, rules=len(rules))
    opts = settings(max_examples=max_examples, deadline=None, database=None, derandomize=False,
                    phases=[Phase.generate, Phase.shrink], suppress_health_check=list(HealthCheck))
    names: set[str] = set()

    def judge(obj: dict[str, Any], old: dict[str, Any] | None = None) -> Any:
        case = TestCase("generate", crd_path, 0, obj, Expectation(), old_object=old, version=ver.name)
        return _judge(case, entry, DEFAULT_RELEASE)

    # the smallest valid object: every case starts from it (shrunk by hypothesis)
    def strip(obj: dict[str, Any]) -> dict[str, Any]:
        meta = {"name": "example", **({"namespace": "default"} if prepared.namespaced else {})}
        return {**obj, "metadata": meta}

    with engine_constant("MAX_SHRINKS", SHRINK_STEPS):
        try:
            base = find(object_strategy(vs).map(strip), lambda o: not judge(o).errors, settings=opts,
                        random=random.Random(f"{seed}:base"))
        except (NoSuchExample, Unsatisfiable):
            raise ValueError(f"{crd_path}: no valid object of version {ver.name} found to start from") from None
        _search_rules(out, rules, by_key, ver, prepared, base, judge, opts, seed, names)
    _recheck(out, crd_path, output_path)
    return out


def _search_rules(out: GeneratedSuite, rules: dict[str, Any], by_key: dict[str, Any], ver: Any, prepared: Any,
                  base: dict[str, Any], judge: Any, opts: Any, seed: int, names: set[str]) -> None:
    """For each rule, a passing and a failing case when a search finds them (see :func:`generate_suite`)."""
    from hypothesis import find
    from hypothesis import strategies as st
    from hypothesis.errors import NoSuchExample, Unsatisfiable

    from crdtool.core.fuzz.strategies import value_strategy

    for n, (key, item) in enumerate(rules.items()):
        rule = by_key.get(key)
        label = f"{item.path} ({item.text})"
        steps = _steps(item.path)
        if rule is None or steps is None:
            out.not_exercised.append((label, "its node is inside anyOf/oneOf/not: no value is sure to reach it"))
            continue
        transition = "oldSelf" in str(rule.get("rule", ""))
        node: Any = ver.structural
        for step in steps:
            node = _child(node, step)
        obj_name = f"rule-{n + 1}"
        if steps and steps[0] == ("prop", "status") and ver.status_enabled:
            out.not_exercised.append((label, "a status rule: a create drops status (status subresource); test it with "
                                             "an update of subresource: status"))
            continue
        targeted = _targeted(base, ver.structural, steps, obj_name)
        node_values = value_strategy(node) if transition else None
        found: dict[str, Any] = {}
        for want in ("pass", "fail"):
            rnd = random.Random(f"{seed}:{key}:{want}")
            try:
                if transition:
                    pairs = st.tuples(targeted, st.booleans(), node_values).map(
                        lambda t: (t[0], t[0] if t[1] else _replace_at(t[0], steps, t[2])))

                    def ok_pair(pair: Any, want: str = want) -> bool:
                        old, new = pair
                        if new is None or judge(old).errors:
                            return False
                        outcome, only = _outcome(verdict := judge(new, old), rule)
                        return outcome == want and (not verdict.errors if want == "pass" else only)

                    found[want] = _search(find, pairs, ok_pair, opts, rnd)
                else:
                    def ok(obj: Any, want: str = want) -> bool:
                        verdict = judge(obj)
                        outcome, only = _outcome(verdict, rule)
                        return outcome == want and (not verdict.errors if want == "pass" else only)

                    found[want] = _search(find, targeted, ok, opts, rnd)
            except (NoSuchExample, Unsatisfiable):
                continue
        if not found:
            reason = "no object within the search's examples makes it pass or fail (with a schema-valid object)"
            if item.text and "compile" in item.text:
                reason = "it does not compile"
            out.not_exercised.append((label, reason))
            continue
        missing = [w for w in ("pass", "fail") if w not in found]
        if missing:
            out.not_exercised.append((label, f"no object within the search's examples makes it {missing[0]} "
                                             f"(found one that makes it {'fail' if missing[0] == 'pass' else 'pass'})"))
        else:
            out.exercised.append(label)
        for want, example in found.items():
            old, obj = example if transition else (None, example)
            verdict = judge(obj, old)
            title = f"{item.text[:60]} {'passes' if want == 'pass' else 'fails'}"
            name = title
            k = 2
            while name in names:
                name = f"{title} #{k}"
                k += 1
            names.add(name)
            case: dict[str, Any] = {"name": name}
            if old is not None:
                case["oldObject"] = old
            case["object"] = obj
            if want == "pass":
                case["expect"] = {"valid": True}
            else:
                case["expect"] = {"errors": [{"field": e.field, "type": e.type, "message": str(e)} for e in verdict.errors]}
            out.suite["cases"].append(case)


def _recheck(out: GeneratedSuite, crd_path: str, output_path: str | None) -> None:
    """Run the suite as it will be written; drop (and name) every case that would not pass."""
    from crdtool.testing.runner import run
    from crdtool.testing.suite import load_suite

    where = output_path or "generated.crdtest.yaml"  # crds: is relative to the output's directory, else as given
    text = render(out)
    suite = load_suite(where, text.encode("utf-8"))
    if suite.errors:
        raise RuntimeError(f"the generated suite does not read back: {suite.errors[0]}")
    result = run([suite])
    failing = {r.case.name: "; ".join(r.problems) for r in result.results if not r.passed}
    if failing:
        out.dropped.extend(failing.items())
        out.suite["cases"] = [c for c in out.suite["cases"] if c["name"] not in failing]


def render(out: GeneratedSuite) -> str:
    """The suite as YAML, with a header saying what was generated and what could not be."""
    import yaml

    lines = ["# Generated by crdtool test --generate: review each case before relying on it.",
             f"# CEL rules: {out.rules}; exercised both ways: {len(out.exercised)}"]
    for label, reason in out.not_exercised:
        lines.append(f"# not exercised: {label}: {reason}")
    for name, why in out.dropped:
        lines.append(f"# dropped (would not pass as written): {name}: {why}")
    class _NoAliases(yaml.SafeDumper):
        def ignore_aliases(self, data: Any) -> bool:
            return True

    return "\n".join(lines) + "\n" + yaml.dump(out.suite, Dumper=_NoAliases, sort_keys=False, width=120,
                                               allow_unicode=True)
