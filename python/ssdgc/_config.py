"""`Config`: a drive and GC configuration built in layers, as the ssdgc command builds one."""

from __future__ import annotations

import functools
import json
import math
import numbers
import os
from typing import Any, Iterable, Mapping, Tuple, Union

from . import _native

PathLike = Union[str, "os.PathLike[str]"]


class _either:
    """A method that works on the class (on the default preset) and on an instance."""

    def __init__(self, f):
        self.f = f
        functools.update_wrapper(self, f)

    def __get__(self, obj, cls):
        f = self.f

        @functools.wraps(f)
        def bound(*args, **kwargs):
            return f(obj if obj is not None else cls(), *args, **kwargs)

        return bound


def _toml_value(v: Any) -> str:
    """`v` as a TOML value (strings quoted)."""
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    return _toml_literal(v)


def _toml_literal(v: Any) -> str:
    """`v` as the right-hand side of `--set section.key=value`.

    A string is passed as it is, as on the command line (`"PCWD"`, `"25us"`, `"rga:8"`); numbers,
    booleans, lists and dicts (the table form of `gc.victim`) become TOML values.
    """
    if isinstance(v, str):
        return v
    if isinstance(v, bool) or type(v).__name__ == "bool_":
        return "true" if v else "false"
    if isinstance(v, numbers.Integral):
        return str(int(v))
    if isinstance(v, numbers.Real):
        f = float(v)
        if math.isnan(f):
            return "nan"
        if math.isinf(f):
            return "inf" if f > 0 else "-inf"
        return repr(f)
    if isinstance(v, Mapping):
        items = ", ".join(f"{json.dumps(str(k))} = {_toml_value(x)}" for k, x in v.items())
        return "{ " + items + " }" if items else "{}"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise TypeError(
        f"a setting's value must be a string, number, boolean, list or dict, not {type(v).__name__}"
    )


class Config:
    """A drive and GC configuration, built in layers like the ssdgc command's.

    The layers come in the command's order: a preset (``Config.preset("pagc-small")``, the
    ``--preset``), TOML files (``.from_toml(path)``, ``--config``) and ``section.key`` overrides
    (``.set("gc.threshold", 0.05)``, ``--set``). A ``Config`` never changes: each layer returns a
    new one, so one base serves many runs. A bad layer raises :class:`ssdgc.SsdgcError` at once,
    with the message the command prints for the same mistake.

    >>> cfg = Config.preset("pagc-small").set("gc.threshold", 0.05)
    >>> print(cfg.to_toml())          # the effective configuration, as --dump-config prints it
    """

    __slots__ = ("_native",)

    def __init__(self, preset: str = "default") -> None:
        self._native = _native.Config.preset(preset)

    @classmethod
    def _wrap(cls, native: _native.Config) -> "Config":
        c = cls.__new__(cls)
        c._native = native
        return c

    @classmethod
    def preset(cls, name: str = "default") -> "Config":
        """The drive preset ``name`` (``ssdgc.presets()`` lists them)."""
        return cls._wrap(_native.Config.preset(name))

    @_either
    def from_toml(self, path: PathLike) -> "Config":
        """This configuration with the TOML file at ``path`` over it (``--config``).

        Called on the class, ``Config.from_toml(path)`` starts from the ``default`` preset; on a
        configuration, ``Config.preset("pgc").from_toml(path)`` layers the file over it. The file
        has the sections and keys ``to_toml()`` prints; unknown keys are errors naming the file
        and line.
        """
        return Config._wrap(self._native.with_file(os.fspath(path)))

    @_either
    def from_toml_str(self, text: str, source: str = "<string>") -> "Config":
        """This configuration with a TOML document over it; ``source`` names it in errors."""
        return Config._wrap(self._native.with_text(text, source))

    def set(self, key: str, value: Any = ..., /) -> "Config":
        """This configuration with one setting overridden (``--set``).

        ``set("gc.threshold", 0.05)`` or, exactly as on the command line,
        ``set("gc.threshold=0.05")``. A string value is read as the command line reads it
        (``set("ftl.allocation", "PCWD")``, ``set("timing.read", "25us")``); numbers, booleans,
        lists and dicts (``set("gc.victim", {"policy": "alpha", "alpha": 0.5})``) are TOML values.
        """
        if value is ...:
            return Config._wrap(self._native.with_set(key))
        return Config._wrap(self._native.with_set(f"{key}={_toml_literal(value)}"))

    def update(self, settings: Union[Mapping[str, Any], Iterable[Tuple[str, Any]]]) -> "Config":
        """This configuration with every ``key: value`` of ``settings`` set, in order."""
        items = settings.items() if isinstance(settings, Mapping) else settings
        c = self
        for k, v in items:
            c = c.set(k, v)
        return c

    def to_toml(self) -> str:
        """The effective configuration as TOML, as ``ssdgc run --dump-config`` prints it.

        Raises :class:`ssdgc.SsdgcError` when the layers do not make a valid configuration.
        """
        return self._native.to_toml()

    def to_dict(self) -> dict:
        """The effective configuration as a dict of sections (``{"gc": {"threshold": …}}``)."""
        return json.loads(self._native.to_json())

    def get(self, key: str) -> Any:
        """The effective value of ``section.key`` (``cfg.get("gc.threshold")``)."""
        section, _, name = key.partition(".")
        d = self.to_dict()
        if section not in d or name not in d[section]:
            raise KeyError(key)
        return d[section][name]

    def validate(self) -> "Config":
        """Checks that the layers make a valid configuration (raises :class:`ssdgc.SsdgcError`)."""
        self._native.validate()
        return self

    def layers(self) -> list:
        """The layers, in order: ``("preset", name, "")``, ``("toml", text, source)`` and
        ``("set", "section.key=value", "")``."""
        return list(self._native.layers())

    def __reduce__(self):
        return (_config_from_layers, (self.layers(),))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Config) and self.layers() == other.layers()

    def __hash__(self) -> int:
        return hash(tuple(self.layers()))

    def __repr__(self) -> str:
        parts = []
        for kind, value, source in self.layers():
            if kind == "preset":
                parts.append(f"Config.preset({value!r})")
            elif kind == "toml":
                parts.append(f".from_toml_str(<{len(value)} chars>, source={source!r})")
            else:
                parts.append(f".set({value!r})")
        return "".join(parts)


def _config_from_layers(layers) -> Config:
    return Config._wrap(_native.config_from_layers([tuple(x) for x in layers]))


def as_config(config: Union[Config, str, None]) -> Config:
    """A `Config` from a `Config`, a preset name, or None (the ``default`` preset)."""
    if config is None:
        return Config.preset("default")
    if isinstance(config, Config):
        return config
    if isinstance(config, str):
        return Config.preset(config)
    raise TypeError(f"config must be a ssdgc.Config or a preset name, not {type(config).__name__}")
