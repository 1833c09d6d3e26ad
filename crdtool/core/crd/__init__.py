"""CustomResourceDefinition semantics: defaults, conversion, validation."""
