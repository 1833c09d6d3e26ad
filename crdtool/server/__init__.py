"""``crdtool serve``: a Python conversion function served as a Kubernetes conversion webhook.

Modules:

* :mod:`crdtool.server.handler` — one ConversionReview in, one out: request checks (400s), the
  user's function called on each object in order under a per-request timeout, and the apiserver's
  own checks (``crdtool.core.conversion_review``) applied to the answer before it is sent;
* :mod:`crdtool.server.pool` and :mod:`crdtool.server.child` — the converter processes of a worker:
  the handler runs there, off the event loop, and a process that overruns the timeout is killed and
  replaced;
* :mod:`crdtool.server.app` — the bare ASGI application (``/convert``, ``/healthz``, ``/readyz``,
  ``/metrics``), body limits (413, 415, 408), structured access logs;
* :mod:`crdtool.server.worker` — one server process: uvicorn on uvloop, TLS handshake, header and
  body timeouts, the drain on SIGTERM;
* :mod:`crdtool.server.metrics` — Prometheus metrics (``prometheus_client``, multiprocess-aware);
* :mod:`crdtool.server.tls` — self-signed development certificates (``cryptography``);
* :mod:`crdtool.server.runner` — listening sockets (``SO_REUSEPORT`` per worker), TLS files, the
  worker processes and the forwarding of signals;
* :mod:`crdtool.server.client` — the apiserver's side over HTTPS (``httpx``), used by
  ``crdtool fuzz-roundtrip --webhook``.

Nothing here is imported at CLI start-up.
"""
