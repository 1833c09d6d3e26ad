"""Types of the C extension built from ``_snapshot.c`` (see ``crdtool/core/snapshot.py``)."""

from typing import Any

def unchanged(value: Any, items: list[Any], /) -> bool: ...
