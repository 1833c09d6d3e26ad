"""``compile_key`` (crdtool/core/kubecel/environment.py): when a release's new- and stored-expressions environments
may share a rule's compilation, and that the shared result is the one each environment gives alone.

The environments of a release (``environment/base.go`` at v0.30.0 … v0.37.0-beta.0, the table of
``_BASE_OPTIONS``): the new-expressions one is built at the compatibility version 1.<minor - 1>, so it lacks the
libraries introduced at the release (IP/CIDR 1.30, Format and AuthzSelectors 1.31, TwoVarComprehensions 1.32,
Semver 1.33, Lists v3 1.34; nothing introduced at 1.35 or 1.36); at 1.37 it has ``library.Lists`` v0 (removed at
1.37) where the stored one has v1 (introduced at 1.37). At 1.31 the new environment, at compatibility 1.30, also
leaves ``SetRecognizeKeywordAsFieldName`` off.
"""

from __future__ import annotations

from typing import Any

import pytest

from crdtool.core.crdcel import compilation as cel_compile
from crdtool.core.crdcel.compilation import CompilationResult, RuleSource, compile_rules
from crdtool.core.kubecel.decltype import DeclType, schema_decl_type
from crdtool.core.kubecel.environment import (
    NAME_SCOPED_LIBRARIES,
    EnvSet,
    _library_words,
    compile_key,
    release_env_set,
)
from crdtool.core.releases import resolve_release
from crdtool.core.schema.structural import new_structural

RELEASES = ("1.30", "1.31", "1.32", "1.33", "1.34", "1.35", "1.36", "1.37")
MEMO = cel_compile._COMPILED


def _env_set(release: str) -> EnvSet:
    return release_env_set(resolve_release(release))


@pytest.mark.parametrize("release", RELEASES)
def test_the_environments_differ_only_in_name_scoped_libraries(release: str) -> None:
    es = _env_set(release)
    assert set(es.new.libraries) ^ set(es.stored.libraries) <= NAME_SCOPED_LIBRARIES
    minor = resolve_release(release).minor
    for lib in NAME_SCOPED_LIBRARIES & (set(es.new.libraries) | set(es.stored.libraries)):
        assert _library_words(lib, es.new.cel_go, minor), lib  # no operator: every name is spelled


@pytest.mark.parametrize("release, text, shared", [
    ("1.35", "self.l.isSorted() && isIP(self.s) && self.all(k, v, v > 0)", True),
    ("1.36", "self.l.sortBy(x, x).size() > 0", True),
    ("1.37", "self.replicas > 0 && self.name.startsWith('a')", True),
    ("1.37", "self.l.isSorted()", False),  # library.Lists v0 / v1
    ("1.37", "self.l.includes(1)", False),
    ("1.37", "self.spec.max >= self.spec.min", False),  # a field named as a lists function: compiled in each
    ("1.30", "self.x.matches('^a')", True),
    ("1.30", "isIP(self.s)", False),
    ("1.30", "string(self.x) == 'a'", False),  # the IP library declares string(net.IP)
    ("1.31", "self.x > 0", False),  # the keyword-as-field-name option differs
    ("1.32", "self.l.all(x, x > 0)", False),  # all/exists: also the two-variable macros' names
    ("1.32", "self.l.size() > 0", True),
    ("1.33", "isSemver(self.v)", False),
    ("1.34", "lists.range(3).size() > 0", False),
    ("1.34", "self.l.map(x, x * 2).size() > 0", True),
])
def test_keys(release: str, text: str, shared: bool) -> None:
    es = _env_set(release)
    assert (compile_key(es.new, text) == compile_key(es.stored, text)) is shared


SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "l": {"type": "array", "maxItems": 10, "items": {"type": "integer"}},
        "s": {"type": "string", "maxLength": 40},
        "v": {"type": "string", "maxLength": 20},
        "x": {"type": "integer"},
        "m": {"type": "object", "maxProperties": 5, "additionalProperties": {"type": "integer"}},
    },
}
RULES = [
    RuleSource("self.x > 0", "'x is ' + string(self.x)"),
    RuleSource("self.l.isSorted() && self.l.sum() < 100"),
    RuleSource("self.l.includes(1)"),
    RuleSource("isIP(self.s) && ip(self.s).family() == 4"),
    RuleSource("isCIDR(self.s)", "self.s + ' is not a CIDR'"),
    RuleSource("self.m.all(k, v, v > 0)"),
    RuleSource("self.m.transformMap(k, v, v * 2).size() == self.m.size()"),
    RuleSource("isSemver(self.v) && semver(self.v).major() > 0"),
    RuleSource("self.l.sortBy(x, -x).size() == self.l.size()"),
    RuleSource("lists.range(3).size() == 3 && self.l.slice(0, 1).size() <= 1"),
    RuleSource("format.dns1123Label().validate(self.s).hasValue()"),
    RuleSource("self.s.matches('^[a-z]+$') && self.l.all(x, x >= 0)", "self.s"),
    RuleSource("oldSelf.x <= self.x"),
]


def _decl() -> DeclType:
    decl = schema_decl_type(new_structural(SCHEMA), False)
    assert decl is not None
    return decl


def _same(a: CompilationResult, b: CompilationResult) -> bool:
    if a != b or a.size_paths != b.size_paths or a.message_size_paths != b.message_size_paths:
        return False
    for pa, pb in ((a.program, b.program), (a.message_program, b.message_program)):
        if (pa is None) != (pb is None):
            return False
        if pa is not None and (pa.checked.type_map != pb.checked.type_map
                               or pa.checked.reference_map != pb.checked.reference_map):
            return False
    return True


@pytest.mark.parametrize("release", RELEASES)
def test_shared_results_are_each_environment_s_own(release: str) -> None:
    """Each rule compiled in the new environment, then in the stored one through the memo (sharing where the keys
    agree), is what compiling it in that environment alone gives."""
    es = _env_set(release)
    decl = _decl()
    alone: dict[str, list[CompilationResult]] = {}
    for name, env in (("new", es.new), ("stored", es.stored)):
        alone[name] = []
        for rule in RULES:
            MEMO.clear()
            alone[name] += compile_rules([rule], decl, EnvSet(env, env))
    MEMO.clear()
    shared_new = compile_rules(RULES, decl, es)
    shared_stored = compile_rules(RULES, decl, es.stored)
    assert all(_same(a, b) for a, b in zip(shared_new, alone["new"]))
    assert all(_same(a, b) for a, b in zip(shared_stored, alone["stored"]))
    shared = sum(a is b for a, b in zip(shared_new, shared_stored))
    if release in ("1.35", "1.36"):
        assert shared == len(RULES)
    if release == "1.37":
        assert 0 < shared < len(RULES)
    if release == "1.31":
        assert shared == 0
    # where the libraries differ, a rule that needs the one only the stored environment has fails in the new one
    differs = {r.rule for r, a, b in zip(RULES, alone["new"], alone["stored"]) if a.error != b.error}
    assert {"1.30": "isIP(self.s) && ip(self.s).family() == 4", "1.33": "isSemver(self.v) && semver(self.v).major() > 0",
            "1.37": "self.l.includes(1)"}.get(release, "") in differs | {""}
