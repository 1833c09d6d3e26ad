"""The configuration file: defaults for command-line options, ``[tool.crdtool]`` or ``.crdtool.yaml``.

Found by walking up from the current directory: in each directory a
``.crdtool.yaml`` (or ``.crdtool.yml``) wins, else a ``pyproject.toml`` with a
``[tool.crdtool]`` table; the walk stops after the directory that holds
``.git`` (the repository root) or at the filesystem root. ``--config FILE``
names the file instead. Keys (TOML and YAML alike)::

    exclude = ["charts/*/templates/"]   # --exclude, repeatable
    skip-kind = ["ConfigMap"]           # --skip-kind, repeatable
    crd = ["deploy/crds/"]              # --crd (relative to the file's directory): the CRD catalog
    ignore-missing-crds = false         # --ignore-missing-crds
    output = "text"                     # --output
    quiet = true                        # --quiet
    exit-zero = false                   # --exit-zero
    kubernetesVersion = "1.30-1.37"     # --kubernetes-version (also kubernetes-version)

    [tool.crdtool.lint]                 # crdtool lint: codes as ruff takes them
    select = ["CRD0", "CRD1"]           # --select (default: the default codes)
    ignore = ["CRD101"]                 # --ignore
    fail-on = "error"                   # --fail-on
    per-file-ignores = {"legacy/*" = ["CRD2"]}   # glob (as --exclude matches) -> codes

    [tool.crdtool.validate]             # per command: overrides the keys above
    quiet = false
    ignore = ["BND003"]                 # validate's checks across the bundle (BND codes only; lint's are its own)
    strict = true                       # --strict: the bundle's findings fail the run

Options given on the command line win; a list given there replaces the
file's list. An unknown key or a value of the wrong type is a usage error
(exit 2) naming the file and the key.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

COMMANDS = ("validate", "upgrade-manifest", "default", "fuzz-roundtrip", "schema", "diff", "review", "serve", "lint", "test",
            "admit")
_LIST_KEYS = ("exclude", "skip-kind", "crd", "select", "ignore")
_BOOL_KEYS = ("quiet", "exit-zero", "ignore-missing-crds", "strict")
_STR_KEYS = ("output", "fail-on", "kubernetes-version")
#: another spelling of a key (the issue tracker and Kubernetes write camelCase)
_ALIASES = {"kubernetesVersion": "kubernetes-version"}
#: glob -> list of lint codes (``per-file-ignores``, as ruff's)
_MAP_KEYS = ("per-file-ignores",)
KEYS = _LIST_KEYS + _BOOL_KEYS + _STR_KEYS + _MAP_KEYS
YAML_NAMES = (".crdtool.yaml", ".crdtool.yml")


class ConfigError(Exception):
    """A configuration file that cannot be used: one line naming the file (and key)."""


@dataclass(frozen=True)
class Config:
    """The settings that apply to one command.

    Attributes:
        path: the file they came from, or None when there is none.
        values: option name (``exclude``, ``skip-kind``, ``crd``, ``output``,
            ``quiet``, ``exit-zero``) -> value; list keys hold lists of strings,
            ``crd`` entries already resolved against the file's directory.
    """

    path: str | None = None
    values: dict[str, Any] = field(default_factory=dict)

    def get(self, key: str, default: Any = None) -> Any:
        return self.values.get(key, default)


def find_config(start: str | None = None) -> str | None:
    """The configuration file that applies in ``start`` (default: the current directory), or None."""
    directory = os.path.abspath(start or os.getcwd())
    while True:
        for name in YAML_NAMES:
            candidate = os.path.join(directory, name)
            if os.path.isfile(candidate):
                return candidate
        pyproject = os.path.join(directory, "pyproject.toml")
        if os.path.isfile(pyproject) and _pyproject_has_table(pyproject):
            return pyproject
        parent = os.path.dirname(directory)
        if os.path.exists(os.path.join(directory, ".git")) or parent == directory:
            return None
        directory = parent


def _pyproject_has_table(path: str) -> bool:
    try:
        return "crdtool" in _read_toml(path).get("tool", {})
    except ConfigError:
        return True  # a broken file that may hold the table: load_config reports it


def _read_toml(path: str) -> dict[str, Any]:
    import tomllib

    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None


def _read_yaml(path: str) -> dict[str, Any]:
    import yaml

    try:
        with open(path, encoding="utf-8") as fh:
            data = yaml.safe_load(fh)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: invalid YAML: {' '.join(str(exc).split())}") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: must be a mapping of option names to values")
    return data


def load_config(command: str, explicit: str | None = None, start: str | None = None) -> Config:
    """The settings for ``command`` from ``explicit`` (``--config``) or the file :func:`find_config` finds.

    Raises :class:`ConfigError` for an unreadable file, an unknown key or a
    value of the wrong type.
    """
    path = explicit if explicit else find_config(start)
    if path is None:
        return Config()
    if explicit and not os.path.isfile(explicit):
        raise ConfigError(f"{explicit}: no such file")
    if os.path.basename(path) == "pyproject.toml" or path.endswith(".toml"):
        table = _read_toml(path).get("tool", {}).get("crdtool", {})
        where = "[tool.crdtool]"
    else:
        table = _read_yaml(path)
        where = ""
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: {where or 'the file'} must be a table of option names to values")
    values: dict[str, Any] = {}
    for key, value in table.items():
        if key in COMMANDS:
            continue
        values[_ALIASES.get(key, key)] = _checked(path, where, key, value)
    section = table.get(command)
    if section is not None:
        if not isinstance(section, dict):
            raise ConfigError(f"{path}: {_name(where, command)} must be a table of option names to values")
        for key, value in section.items():
            values[_ALIASES.get(key, key)] = _checked(path, _name(where, command), key, value)
    base = os.path.dirname(os.path.abspath(path))
    if "crd" in values:
        values["crd"] = [p if p == "-" or os.path.isabs(p) else os.path.relpath(os.path.join(base, p)) for p in values["crd"]]
    if "exclude" in values:
        # a leading "/" anchors a pattern at the file's directory (as in a .gitignore): made absolute
        values["exclude"] = [os.path.join(base, p.strip().lstrip("/")) if p.strip().startswith("/") else p for p in values["exclude"]]
    return Config(path, values)


def _name(where: str, key: str) -> str:
    return f"{where[:-1]}.{key}]" if where else key


def _checked(path: str, where: str, key: Any, value: Any) -> Any:
    label = f"{path}: {where + ' ' if where else ''}{key}"
    if key in _ALIASES:
        key = _ALIASES[key]
    if key not in KEYS:
        known = ", ".join(KEYS + COMMANDS)
        raise ConfigError(f"{path}: {where + ': ' if where else ''}unknown key {key!r} (known: {known})")
    if key in _LIST_KEYS:
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{label}: must be a list of strings")
        return list(value)
    if key in _MAP_KEYS:
        if not isinstance(value, dict):
            raise ConfigError(f"{label}: must be a table of globs to lists of codes")
        out: dict[str, list[str]] = {}
        for glob, codes in value.items():
            if isinstance(codes, str):
                codes = [c for c in codes.split(",") if c.strip()]
            if not isinstance(glob, str) or not isinstance(codes, list) or not all(isinstance(c, str) for c in codes):
                raise ConfigError(f"{label}: must be a table of globs to lists of codes")
            out[glob] = [c.strip() for c in codes]
        return out
    if key in _BOOL_KEYS:
        if not isinstance(value, bool):
            raise ConfigError(f"{label}: must be true or false")
        return value
    if key == "kubernetes-version" and isinstance(value, (int, float)) and not isinstance(value, bool):
        raise ConfigError(f'{label}: must be a string such as "1.37" (a bare number reads as {value!r})')
    if not isinstance(value, str):
        raise ConfigError(f"{label}: must be a string")
    return value


def pick(cli_value: Any, config: Config, key: str, default: Any) -> Any:
    """The option's value: the command line's when given (not None), else the file's, else ``default``."""
    if cli_value is not None and cli_value != []:
        return cli_value
    return config.get(key, default)
