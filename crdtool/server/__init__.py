"""``crdtool serve``: a Python conversion function served as a Kubernetes conversion webhook.

Modules:

* :mod:`crdtool.server.handler` — one ConversionReview in, one out: request checks (400s), the
  user's function called on each object in order under a per-request timeout, and the apiserver's
  own checks (``crdtool.core.conversion_review``) applied to the answer before it is sent;
* :mod:`crdtool.server.app` — the bare ASGI application (``/convert``, ``/healthz``, ``/readyz``,
  ``/metrics``), body limits, structured access logs;
* :mod:`crdtool.server.metrics` — Prometheus metrics (``prometheus_client``, multiprocess-aware);
* :mod:`crdtool.server.tls` — self-signed development certificates (``cryptography``);
* :mod:`crdtool.server.runner` — uvicorn: HTTPS, workers, graceful shutdown on SIGTERM;
* :mod:`crdtool.server.client` — the apiserver's side over HTTPS (``httpx``), used by
  ``crdtool fuzz-roundtrip --webhook``.

Nothing here is imported at CLI start-up.
"""
