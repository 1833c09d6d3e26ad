"""The admission policy plugins: ``k8s.io/apiserver/pkg/admission/plugin/policy`` (``matching``,
``validating``, ``mutating``)."""
