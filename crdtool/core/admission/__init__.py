"""Admission: the apiserver's admission chain for one request, offline (``k8s.io/apiserver/pkg/admission``).

:mod:`.attributes` holds a request's ``admission.Attributes``; :mod:`.policy` the policy plugins
(``pkg/admission/plugin/policy``); :mod:`.chain` runs them in the apiserver's order with the custom
resource's decoding and validation between them.
"""
