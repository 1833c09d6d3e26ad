"""``parse_ip_sloppy``'s IPv4 pattern against the split-and-check it replaced (netutils ``ParseIPSloppy``'s IPv4 form:
four dot-separated runs of 1 to 3 ASCII digits, each at most 255, leading zeros allowed)."""

from __future__ import annotations

import ipaddress

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crdtool.core.apis.core.validation import parse_ip_sloppy


def _reference(value: str) -> int | None:
    parts = value.split(".")
    if len(parts) == 4 and all(p.isdigit() and p.isascii() and len(p) <= 3 and int(p) <= 255 for p in parts):
        return 4
    if ":" in value and "%" not in value:
        try:
            addr = ipaddress.IPv6Address(value)
        except ValueError:
            return None
        return 4 if addr.ipv4_mapped is not None else 6
    return None


@pytest.mark.parametrize("value", ["1.2.3.4", "01.002.3.4", "256.1.1.1", "1.2.3.4\n", "1.2.3", "1.2.3.4.5",
                                   "\u0661.2.3.4", "\u00b2.2.3.4", "0000.1.1.1", "::1", "::ffff:1.2.3.4", "fe80::1%eth0",
                                   "", "a.b.c.d", "255.255.255.255", "1..2.3", " 1.2.3.4"])
def test_edges(value: str) -> None:
    assert parse_ip_sloppy(value) == _reference(value)


_PART = st.sampled_from(["", "0", "00", "1", "255", "256", "999", "1000", "012", "a", " 1", "\u00b2", "\u0661", "7\n"])


@settings(max_examples=300, deadline=None)
@given(st.lists(_PART, min_size=3, max_size=5).map(".".join) | st.text(alphabet="0123.:f%", max_size=16))
def test_as_the_split_and_check(value: str) -> None:
    assert parse_ip_sloppy(value) == _reference(value)
