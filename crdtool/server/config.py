"""What every process of ``crdtool serve`` is configured with, and how a converter process loads its handler.

:class:`ServeConfig` travels from the command line to the server workers and their converter processes
as JSON in ``$CRDTOOL_SERVE_CONFIG``; :func:`load_handler` loads the user's converter and the CRD into
a :class:`~crdtool.server.handler.ReviewHandler`.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from typing import Any

from crdtool.server.handler import DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_OBJECTS, ReviewHandler

__all__ = ["CONFIG_ENV", "DEFAULT_READ_TIMEOUT", "ServeConfig", "load_handler"]

CONFIG_ENV = "CRDTOOL_SERVE_CONFIG"
#: Seconds a client may take for the TLS handshake, for a request's headers, and for its body.
DEFAULT_READ_TIMEOUT = 5.0


@dataclass(frozen=True)
class ServeConfig:
    """What each worker needs to build the app (passed through the environment as JSON).

    ``crd_info``: the CRD as :class:`~crdtool.server.handler.CrdInfo` fields, once read (so that
    workers and converter processes do not read and check the CRD again); ``converters``: converter
    processes per worker; ``read_timeout``: seconds for a request body (the worker applies it to
    TLS handshakes and headers too).
    """

    target: str
    crd_path: str
    path: str = "/convert"
    timeout: float = 10.0
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    max_objects: int = DEFAULT_MAX_OBJECTS
    cwd: str = ""
    converters: int = 2
    read_timeout: float = DEFAULT_READ_TIMEOUT
    crd_info: dict[str, Any] = field(default_factory=dict)
    #: the Kubernetes release whose apiserver's checks apply (``"1.30"`` … ``"1.37"``; None: the default)
    kubernetes_version: str | None = None

    def to_env(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_env(cls, text: str) -> ServeConfig:
        return cls(**json.loads(text))


def load_handler(config: ServeConfig, *, load_converter: bool = True) -> ReviewHandler:
    """Load the converter and the CRD named by ``config`` and build the handler a converter process runs.

    ``load_converter=False``: the handler of a server worker, which only builds the Failures of
    stopped converter processes (:meth:`ReviewHandler.timed_out`); its converter is never called.
    The CRD is read unless ``config.crd_info`` gives it.
    Raises ``crdtool.loading.UsageError`` when the target or the CRD cannot be loaded.
    """
    from crdtool.loading import load_crd, load_target
    from crdtool.server.handler import CrdInfo

    if config.cwd:
        os.chdir(config.cwd)
    if config.crd_info:
        crd = CrdInfo.from_dict(config.crd_info)
    else:
        crd = CrdInfo.from_manifest(load_crd(config.crd_path, kubernetes_version=config.kubernetes_version))
    convert = load_target(config.target)[0] if load_converter else _not_here
    return ReviewHandler(convert, crd, timeout=config.timeout, max_objects=config.max_objects, name=config.target)


def _not_here(obj: dict[str, Any], desired_api_version: str) -> Any:
    raise RuntimeError("conversions run in converter processes")
