"""A converter for the ``crdtool serve`` integration tests: the lossless CronTab converter, plus
behaviours switched on by an annotation (``crdtool-test.example/behaviour``) of the object sent:

- ``raise``: raises ``ValueError("boom: <name>")``;
- ``sleep:<seconds>``: sleeps, then converts (timeouts and SIGTERM draining);
- ``swallow:<seconds>``: sleeps that long, catching everything a timeout raises (a bare ``except:``), then
  converts: only killing its process stops it in time;
- ``exit``: ends its process (``os._exit(3)``), as a crash in an extension module would;
- ``rename``: changes ``metadata.name`` (the apiserver fails the request);
- ``generation``: changes ``metadata.generation`` (the apiserver would silently restore it);
- ``bad-label``: adds an invalid label key.

The fuzzer never generates that annotation key, so fuzzing this converter fuzzes ``convert_lossless``.
"""

from __future__ import annotations

import os
import time
from typing import Any

from samples.crontab_conversion import convert_lossless

KEY = "crdtool-test.example/behaviour"


def convert(obj: dict[str, Any], desired_api_version: str) -> dict[str, Any]:
    behaviour = ((obj.get("metadata") or {}).get("annotations") or {}).get(KEY, "")
    if behaviour == "raise":
        raise ValueError(f"boom: {obj['metadata'].get('name')}")
    if behaviour.startswith("sleep:"):
        time.sleep(float(behaviour.split(":", 1)[1]))
    elif behaviour.startswith("swallow:"):
        until = time.monotonic() + float(behaviour.split(":", 1)[1])
        while time.monotonic() < until:
            try:
                time.sleep(max(0.0, until - time.monotonic()))
            except:  # noqa: E722 - the point: a converter that swallows the timeout
                pass
    elif behaviour == "exit":
        os._exit(3)
    out = convert_lossless(obj, desired_api_version)
    if behaviour == "rename":
        out["metadata"]["name"] = "renamed"
    elif behaviour == "generation":
        out["metadata"]["generation"] = 99
    elif behaviour == "bad-label":
        out["metadata"].setdefault("labels", {})["a/b/c"] = "x"
    return out
