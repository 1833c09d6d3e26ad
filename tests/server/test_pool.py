"""crdtool.server.pool: converter processes, driven in-process on an asyncio loop.

The converter is tests/server/behaviours.py:convert (behaviours switched on by an annotation). Time limits
are generous: they tell "stopped by the timeout" from "ran to the end" (5 s sleeps), not speed.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from crdtool.server.app import ServeConfig, load_handler
from crdtool.server.child import decode_outcome, encode_outcome
from crdtool.server.handler import ObjectTiming, Outcome
from crdtool.server.pool import ConverterPool, ConverterStartError

ROOT = Path(__file__).resolve().parents[2]
CRD = ROOT / "samples" / "crontab-multiversion-v1.yaml"
BEHAVIOUR = "crdtool-test.example/behaviour"


def crontab(name: str, behaviour: str | None = None) -> dict[str, Any]:
    obj: dict[str, Any] = {"apiVersion": "stable.example.com/v1", "kind": "CronTab",
                           "metadata": {"name": name, "namespace": "default", "uid": f"uid-{name}"},
                           "spec": {"cronSpec": "* * * * *", "image": "busybox"}}
    if behaviour:
        obj["metadata"]["annotations"] = {BEHAVIOUR: behaviour}
    return obj


def review(*objects: dict[str, Any]) -> bytes:
    return json.dumps({"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview",
                       "request": {"uid": "r1", "desiredAPIVersion": "stable.example.com/v2",
                                   "objects": list(objects)}}).encode()


def make_pool(timeout: float = 1.0, size: int = 1, target: str = "tests/server/behaviours.py:convert") -> ConverterPool:
    config = ServeConfig(target=target, crd_path=str(CRD), timeout=timeout)  # no cwd: this process stays where it is
    handler = load_handler(config, load_converter=False)
    config = ServeConfig(target=target, crd_path=str(CRD), cwd=str(ROOT), timeout=timeout, crd_info=handler.crd.to_dict())
    return ConverterPool(handler, config.to_env(), size=size, cwd=str(ROOT))


def run(coro: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coro, 60))


def test_outcomes_cross_the_channel_unchanged() -> None:
    outcome = Outcome(200, b'{"x":1}', "failure", "m", "converter_error", "u", "apiextensions.k8s.io/v1",
                      "stable.example.com/v2", 2, 0.25, [ObjectTiming("v1", 0.1, True), ObjectTiming("v2", 0.2, False)])
    assert decode_outcome(encode_outcome(outcome)) == outcome


def test_conversions_run_in_other_processes_and_the_timeout_is_hard() -> None:
    async def scenario() -> None:
        pool = make_pool(timeout=1.0, size=1)
        await pool.start()
        try:
            pids = {p.popen.pid for p in pool._all}
            assert os.getpid() not in pids and len(pids) == 1
            ok = await pool.convert(review(crontab("a")), time.monotonic())
            assert ok.result == "success" and json.loads(ok.body)["response"]["convertedObjects"][0]["apiVersion"] == \
                "stable.example.com/v2"

            # the timer inside the process interrupts a sleeping converter; the process stays
            start = time.monotonic()
            slept = await pool.convert(review(crontab("a"), crontab("b", "sleep:5")), start)
            assert time.monotonic() - start < 3.5
            assert slept.result == "timeout" and "within 1 s (stopped at object 1, default/b)" in slept.message
            assert {p.popen.pid for p in pool._all} == pids

            # a converter that swallows the timeout is killed, answered for, and replaced
            start = time.monotonic()
            swallowed = await pool.convert(review(crontab("a"), crontab("b", "swallow:8")), start)
            assert time.monotonic() - start < 4
            assert swallowed.result == "timeout" and swallowed.reason == "timeout"
            assert swallowed.message == slept.message and swallowed.body == slept.body
            again = await pool.convert(review(crontab("c")), time.monotonic())
            assert again.result == "success"
            assert {p.popen.pid for p in pool._all}.isdisjoint(pids)
        finally:
            await pool.close()
        assert not pool._all

    run(scenario())


def test_a_process_that_ends_is_a_failure_and_is_replaced() -> None:
    async def scenario() -> None:
        pool = make_pool(size=1)
        await pool.start()
        try:
            outcome = await pool.convert(review(crontab("a"), crontab("b", "exit")), time.monotonic())
            assert outcome.result == "failure" and outcome.reason == "converter_error"
            assert outcome.message == ("the process running tests/server/behaviours.py:convert exited with status 3 "
                                       "while converting object 1 (default/b)")
            assert (await pool.convert(review(crontab("c")), time.monotonic())).result == "success"
        finally:
            await pool.close()

    run(scenario())


def test_waiting_for_a_free_process_counts_against_the_timeout() -> None:
    async def scenario() -> None:
        pool = make_pool(timeout=1.0, size=1)
        await pool.start()
        try:
            start = time.monotonic()
            busy = asyncio.ensure_future(pool.convert(review(crontab("a", "swallow:8")), start))
            await asyncio.sleep(0.1)
            waited = await pool.convert(review(crontab("w")), start)
            assert waited.result == "timeout" and "(stopped at object 0, default/w)" in waited.message
            assert time.monotonic() - start < 3
            assert (await busy).result == "timeout"
        finally:
            await pool.close()

    run(scenario())


def test_a_converter_that_cannot_load_fails_the_start() -> None:
    async def scenario() -> None:
        pool = make_pool(target="tests/server/no_such_file.py:convert")
        with pytest.raises(ConverterStartError, match="no_such_file.py"):
            await pool.start()

    run(scenario())
