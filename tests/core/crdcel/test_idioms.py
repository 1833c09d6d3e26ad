"""crdcel/idioms: the rule idioms docs, explain and lint put into words.

The transition-rule examples are those of the Kubernetes documentation ("Transition rules",
custom-resource-definitions.md, website release-1.35: ``self == oldSelf`` "Value is immutable",
``self >= oldSelf`` for a value that may only grow, ``oldSelf.all(x, x in self)`` for a list items may
only be added to, ``!has(oldSelf.x) || has(self.x)`` for a field that cannot be unset) and of the
corpus' most common rules (Gateway API's ``(has(self.a) ? 1 : 0) + ... == 1``, rook's
``has(self.a) == has(self.b)``); ``uses_old_self`` is the test of ``UsesOldSelf`` in
apiextensions-apiserver ``pkg/apiserver/schema/cel/compilation.go`` @v0.35.0.
"""

from __future__ import annotations

import pytest

from crdtool.core.crdcel.idioms import Idiom, classify_rule, uses_old_self

CASES = [
    ("self == oldSelf", "immutable", "immutable once set", True),
    ("oldSelf == self", "immutable", "immutable once set", True),
    ("self.name == oldSelf.name", "immutable", "`name` is immutable once set", True),
    ("self >= oldSelf", "may-only-grow", "may only grow (never decrease)", True),
    ("oldSelf <= self", "may-only-grow", "may only grow (never decrease)", True),
    ("self > oldSelf", "must-increase", "must increase on every update", True),
    ("self <= oldSelf", "may-only-shrink", "may only shrink (never increase)", True),
    ("size(self) >= size(oldSelf)", "may-only-grow", "may only grow (never fewer items or characters)", True),
    ("self.size() >= oldSelf.size()", "may-only-grow", "may only grow (never fewer items or characters)", True),
    ("oldSelf.all(x, x in self)", "append-only", "entries may be added, never removed", True),
    ("!has(oldSelf.x) || has(self.x)", "may-not-be-removed", "`x` may not be removed once set", True),
    ("has(self.x) || !has(oldSelf.x)", "may-not-be-removed", "`x` may not be removed once set", True),
    ("has(self.x) == has(oldSelf.x)", "presence-immutable", "`x` may not be added or removed after creation", True),
    ("has(self.value) != has(self.secretRef)", "exactly-one-of", "exactly one of `value` and `secretRef` must be set", False),
    ("has(self.crushNumFailureDomains) == has(self.crushOSDsPerFailureDomain)", "together",
     "`crushNumFailureDomains` and `crushOSDsPerFailureDomain` are set together or not at all", False),
    ("!(has(self.percent) && has(self.fraction))", "mutually-exclusive", "`percent` and `fraction` are mutually exclusive", False),
    ("has(self.address) || has(self.network)", "at-least-one-of", "at least one of `address` and `network` must be set", False),
    ("has(self.a) || has(self.b) || has(self.c)", "at-least-one-of", "at least one of `a`, `b` and `c` must be set", False),
    ("has(self.spec)", "required", "`spec` must be set", False),
    ("(has(self.selector) ? 1 : 0) + (has(self.targetRef) ? 1 : 0) == 1", "exactly-one-of",
     "exactly one of `selector` and `targetRef` must be set", False),
    ("(has(self.a) ? 1 : 0) + (has(self.b) ? 1 : 0) + (has(self.c) ? 1 : 0) <= 1", "at-most-one-of",
     "at most one of `a`, `b` and `c` may be set", False),
    ("0 < self && self <= 65535", "range", "must be greater than 0 and at most 65535", False),
    ("self.port >= 1 && self.port < 1024", "range", "`port` must be at least 1 and less than 1024", False),
]


@pytest.mark.parametrize(("rule", "kind", "text", "transition"), CASES, ids=[c[0] for c in CASES])
def test_idioms_are_recognised(rule: str, kind: str, text: str, transition: bool) -> None:
    assert classify_rule(rule) == Idiom(kind, text, transition)


@pytest.mark.parametrize("rule", [
    "duration(self) >= duration('1ms')",  # the corpus' most common rule: no idiom, shown as written
    "self.x < 5",
    "self == oldSelf ||",  # does not parse
    "self == oldSelf.name",  # not the same read on both sides
    "self.a == oldSelf.b",
    "has(self.a) != has(self.a)",
    "(has(self.a) ? 1 : 0) + (has(self.b) ? 1 : 0) == 2",
    "oldSelf.all(x, x in other)",
    "0 < self && self.x <= 5",
    "self.size() == 0",
])
def test_other_rules_are_not_guessed(rule: str) -> None:
    assert classify_rule(rule) is None


@pytest.mark.parametrize(("rule", "expected"), [
    ("self == oldSelf", True),
    ("self.all(x, x.name != '')", False),
    ("oldSelf.hasValue() ? self == oldSelf.value() : true", True),
    ("[1, 2].exists(x, x == size(oldSelf))", True),
    ("{'a': oldSelf}.size() == 1", True),
    ("'oldSelf' == self", False),  # a string, not the variable
    ("self ==", False),  # does not parse
])
def test_uses_old_self(rule: str, expected: bool) -> None:
    assert uses_old_self(rule) is expected
