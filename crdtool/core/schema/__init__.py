"""Structural schemas: model, pruning, defaulting, value validation, CEL."""
