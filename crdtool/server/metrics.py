"""Prometheus metrics of ``crdtool serve`` (``prometheus_client``), after the KEP's "Monitorability" section.

The conversion-webhook KEP asks for conversion latency overall, by webhook, by request (the sum of
all conversions in a request) and by CRD; failure counts and timeout counts overall, by webhook and
by CRD. Every series carries ``crd`` and ``webhook`` labels ("overall" is a ``sum`` over them):

- ``crdtool_conversion_request_duration_seconds{crd,webhook,review_version,result}`` (histogram):
  one observation per ConversionReview, all its conversions and checks included; buckets as the
  apiserver's ``apiserver_conversion_webhook_duration_seconds`` (5 ms to 60 s);
- ``crdtool_conversion_duration_seconds{crd,webhook,from_version,to_version,succeeded}``
  (histogram): one observation per object, per CRD and version pair; buckets as the apiserver's
  ``apiserver_crd_conversion_webhook_duration_seconds`` (1 ms doubling, 15 buckets);
- ``crdtool_conversion_requests_total{crd,webhook,review_version,result}``: ``result`` is
  ``success``, ``failure``, ``timeout`` or ``bad_request``;
- ``crdtool_conversion_objects_total{crd,webhook,from_version,to_version}``;
- ``crdtool_conversion_failures_total{crd,webhook,reason}``: ``reason`` is ``converter_error``,
  ``invalid_result``, ``invalid_request``, ``timeout`` or ``bad_request``;
- ``crdtool_conversion_timeouts_total{crd,webhook}``.

With several worker processes, ``PROMETHEUS_MULTIPROC_DIR`` is set by the runner before the
workers start; ``/metrics`` then aggregates all workers (``MultiProcessCollector``).
"""

from __future__ import annotations

import os
from typing import Any

REQUEST_BUCKETS = (0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 30, 45, 60)
OBJECT_BUCKETS = tuple(0.001 * 2**i for i in range(15))
MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"


class Metrics:
    """The metric families of one server process, in their own registry."""

    def __init__(self, crd: str, webhook: str) -> None:
        from prometheus_client import CollectorRegistry, Counter, Histogram

        self.crd = crd
        self.webhook = webhook
        self.multiprocess = bool(os.environ.get(MULTIPROC_ENV))
        # In multiprocess mode the families must not be registered anywhere (values go to files).
        registry: Any = None if self.multiprocess else CollectorRegistry()
        self.registry = registry
        common = ["crd", "webhook"]
        self.request_duration = Histogram(
            "crdtool_conversion_request_duration_seconds",
            "Time to answer one ConversionReview (all conversions of the request and the checks).",
            common + ["review_version", "result"], buckets=REQUEST_BUCKETS, registry=registry,
        )
        self.object_duration = Histogram(
            "crdtool_conversion_duration_seconds",
            "Time to convert one object, by CRD and version pair.",
            common + ["from_version", "to_version", "succeeded"], buckets=OBJECT_BUCKETS, registry=registry,
        )
        self.requests = Counter(
            "crdtool_conversion_requests_total", "ConversionReview requests by result.",
            common + ["review_version", "result"], registry=registry,
        )
        self.objects = Counter(
            "crdtool_conversion_objects_total", "Objects converted, by CRD and version pair.",
            common + ["from_version", "to_version"], registry=registry,
        )
        self.failures = Counter(
            "crdtool_conversion_failures_total", "Failed ConversionReview requests by reason.",
            common + ["reason"], registry=registry,
        )
        self.timeouts = Counter(
            "crdtool_conversion_timeouts_total", "ConversionReview requests that exceeded the timeout.",
            common, registry=registry,
        )

    def observe(self, outcome: Any) -> None:
        """Record one :class:`crdtool.server.handler.Outcome`."""
        labels = {"crd": self.crd, "webhook": self.webhook}
        review = outcome.review_version.rpartition("/")[2]
        self.requests.labels(**labels, review_version=review, result=outcome.result).inc()
        if outcome.result != "bad_request":
            self.request_duration.labels(**labels, review_version=review, result=outcome.result).observe(outcome.seconds)
        if outcome.result != "success":
            self.failures.labels(**labels, reason=outcome.reason or outcome.result).inc()
        if outcome.result == "timeout":
            self.timeouts.labels(**labels).inc()
        to_version = outcome.desired.rpartition("/")[2]
        for t in outcome.timings:
            self.object_duration.labels(
                **labels, from_version=t.from_version, to_version=to_version, succeeded=str(t.ok).lower()
            ).observe(t.seconds)
            if t.ok:
                self.objects.labels(**labels, from_version=t.from_version, to_version=to_version).inc()

    def exposition(self) -> tuple[bytes, str]:
        """The text exposition of every worker's metrics and its content type."""
        from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest

        if self.multiprocess:
            from prometheus_client import multiprocess

            registry = CollectorRegistry()
            multiprocess.MultiProcessCollector(registry)
            return generate_latest(registry), CONTENT_TYPE_LATEST
        return generate_latest(self.registry), CONTENT_TYPE_LATEST
