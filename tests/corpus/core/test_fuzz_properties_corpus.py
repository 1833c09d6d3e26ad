"""The corpus tier of ``tests/core/test_fuzz_properties.py`` (these tests read ``../shared``)."""

from __future__ import annotations

import yaml

from crdtool.core.fuzz import VersionSchema, versions_from_crd
from crdtool.core.fuzz.properties import (
    objects_per_example,
)
from tests.core.test_fuzz_properties import CRONTAB_VERSIONS, ROOT, WIDGET_VERSIONS

CORPUS_CRDS = ROOT.parent / "shared" / "corpus" / "crds" / "v1"


def test_objects_per_example_falls_as_schemas_grow() -> None:
    # measured (see objects_per_example): lists of large objects overrun hypothesis's per-example budget
    assert [objects_per_example(v) for v in CRONTAB_VERSIONS] == [8, 8]
    assert [objects_per_example(v) for v in WIDGET_VERSIONS] == [4, 4]
    httproute = CORPUS_CRDS / "gateway-api__v1.6.1__standard__httproutes.yaml"
    big = versions_from_crd(yaml.load(httproute.read_bytes(), Loader=yaml.CSafeLoader))
    assert objects_per_example(big[0]) == 2
    bare = VersionSchema("g", "v1", "K", True, True, True, None, None)
    assert objects_per_example(bare) == 8
