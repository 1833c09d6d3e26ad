"""Built-in kinds' native validation and defaulting, one package per API group.

Mirrors kubernetes/kubernetes ``pkg/apis/<group>/validation/validation.go`` (``validation.py``) and
``pkg/apis/<group>/<version>/defaults.go`` (``defaults.py``). Functions work on the *versioned* object as a
decoded JSON dict (upstream validates the internal type; the conversion is field for field for what is ported
here): a missing field is Go's zero value; field paths are the same JSON names. The registry strategies
(:mod:`crdtool.core.registry`) call them on create.

Upstream read: openshift/microshift ``release-4.17`` … ``release-4.23`` (Kubernetes 1.30 … 1.36, the
kubernetes tree under ``vendor/k8s.io/kubernetes`` or ``deps/github.com/openshift/kubernetes``); 1.37 is
judged as 1.36 where no table says otherwise.
"""
