"""``parse_quantity_error`` says what ``resource.ParseQuantity`` says (apimachinery v0.36.3 quantity.go).

Its verdict must be the full parser's (:func:`crdtool.core.kubecel.library.parse_quantity`, tested against
upstream's quantity_test.go in the CEL library's tests) on any text over the quantity alphabet.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from crdtool.core.kubecel.library import parse_quantity
from crdtool.core.quantity import parse_quantity_error


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="0123456789.+-eEinumkKMGTPx ", max_size=24))
def test_same_verdict_as_the_full_parser(text: str) -> None:
    full = parse_quantity(text)
    assert parse_quantity_error(text) == (full if isinstance(full, str) else "")


def test_examples() -> None:
    assert parse_quantity_error("1Gi") == ""
    assert parse_quantity_error(".") == ""
    assert parse_quantity_error("1Ki5") == "unable to parse quantity's suffix"
    assert parse_quantity_error("true").startswith("quantities must match the regular expression")
