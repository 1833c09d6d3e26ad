"""CPU seconds per test (the test's own process and the child processes it waits for), written as JSON at the end
of the session: what ``tests/long_runs.py`` chooses the long runs from. Load-independent, unlike wall time.

    CPU_OUT=/tmp/cpu.json python -m pytest -q -p no:cacheprovider -p tests.timing_plugin
"""

from __future__ import annotations

import json
import os
import resource
import time
from typing import Any

import pytest

_data: dict[str, dict[str, float]] = {}


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: Any) -> Any:
    c0, r0, w0 = time.process_time(), resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    yield
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    _data[item.nodeid] = {
        "cpu": time.process_time() - c0,
        "child": (r1.ru_utime + r1.ru_stime) - (r0.ru_utime + r0.ru_stime),
        "wall": time.perf_counter() - w0,
    }


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    with open(os.environ.get("CPU_OUT", "/tmp/cpu.json"), "w") as f:
        json.dump(_data, f)
