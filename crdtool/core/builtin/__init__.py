"""Built-in kinds of Kubernetes, per release: schema data, strict decoding into the Go types, serving.

* :mod:`crdtool.core.builtin.catalog`: what each release's OpenAPI v3 says (kinds, scope, resources,
  definitions), from the generated data in :mod:`crdtool.core.builtin.data`.
* :mod:`crdtool.core.builtin.serving`: which group-versions a release serves by default, the deprecation
  warnings of k8s.io/api's prerelease-lifecycle data, what kubectl gets for one not served.
* :mod:`crdtool.core.builtin.decode`: the apiserver's strict decoding of a request body into the Go types.
"""
