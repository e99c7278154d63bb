"""The engine's settings, read from Hermes's config: ``context.vcc.*`` and ``compression.*``.

Hermes constructs plugin engines without arguments, so the engine reads the same ``compression``
keys the built-in compressor is built from, plus its own ``context.vcc`` keys. Out-of-range numbers
are clamped, unparseable values fall back to their defaults, and each such correction is reported
as a sentence for the log.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PLACEHOLDER_CONTEXT_LENGTH = 128_000
"""Context length used until Hermes calls ``update_model``, unless ``model.context_length`` is set.
Passing one keeps the base constructor from probing the model's endpoint."""


_KEYS: Mapping[str, Mapping[str, Any]] = json.loads(
    Path(__file__).with_name("settings.json").read_text(encoding="utf-8")
)
"""Every ``context.vcc`` key with its type, default and range, as vcc reads them too."""

_DEFAULTS = {key: spec["default"] for key, spec in _KEYS.items()}


@dataclass(frozen=True)
class VccSettings:
    """The ``context.vcc`` keys, validated. Defaults and ranges are in ``settings.json``."""

    budget_ratio: float = _DEFAULTS["budget_ratio"]
    min_budget_tokens: int = _DEFAULTS["min_budget_tokens"]
    max_budget_tokens: int = _DEFAULTS["max_budget_tokens"]
    fallback_to_llm: bool = _DEFAULTS["fallback_to_llm"]
    fast_anchors: bool = _DEFAULTS["fast_anchors"]
    read_store: bool = _DEFAULTS["read_store"]
    binary: str | None = _DEFAULTS["binary"]
    request_timeout_seconds: float = _DEFAULTS["request_timeout_seconds"]


@dataclass(frozen=True)
class NumberSpec:
    """A numeric setting: its type and the inclusive range values are clamped to."""

    kind: type[int] | type[float]
    low: float
    high: float


def _setting_spec(spec: Mapping[str, Any]) -> NumberSpec | type[bool] | type[str]:
    kind = spec["type"]
    if kind in ("int", "float"):
        return NumberSpec(int if kind == "int" else float, spec["low"], spec["high"])
    return bool if kind == "bool" else str


SETTINGS_SPEC: Mapping[str, NumberSpec | type[bool] | type[str]] = {
    key: _setting_spec(spec) for key, spec in _KEYS.items()
}
"""Every ``context.vcc`` key: a number range, ``bool`` or ``str``."""


@dataclass(frozen=True)
class ReadSettings:
    """Settings read from a config, and one sentence per value that had to be corrected."""

    settings: VccSettings
    problems: tuple[str, ...] = field(default=())


def read_settings(config: Mapping[str, Any]) -> ReadSettings:
    """Reads ``context.vcc`` from a loaded Hermes config, clamping and defaulting as needed."""
    section = _section(config, "context", "vcc")
    defaults = VccSettings()
    values: dict[str, Any] = {}
    problems: list[str] = []
    for key in sorted(section):
        if key not in SETTINGS_SPEC:
            problems.append(f"context.vcc.{key} is not a vcc setting; ignored")
    for key, spec in SETTINGS_SPEC.items():
        if key not in section or section[key] is None:
            continue
        default = getattr(defaults, key)
        raw = section[key]
        parsed: bool | str | float | None
        if spec is bool:
            parsed = _as_bool(raw)
        elif spec is str:
            parsed = (raw.strip() or None) if isinstance(raw, str) else None
        else:
            assert isinstance(spec, NumberSpec)
            parsed = _as_number(raw, spec.kind)
        if parsed is None:
            problems.append(f"context.vcc.{key}={raw!r} is not valid; using {default!r}")
            continue
        if (
            isinstance(spec, NumberSpec)
            and isinstance(parsed, (int, float))
            and not (spec.low <= parsed <= spec.high)
        ):
            clamped = spec.kind(min(max(parsed, spec.low), spec.high))
            bounds = f"{spec.low:g}-{spec.high:g}"
            problems.append(f"context.vcc.{key}={raw!r} is outside {bounds}; using {clamped!r}")
            parsed = clamped
        values[key] = parsed
    return ReadSettings(VccSettings(**values), tuple(problems))


def _section(config: Mapping[str, Any], *path: str) -> Mapping[str, Any]:
    node: Any = config
    for key in path:
        node = node.get(key) if isinstance(node, Mapping) else None
    return node if isinstance(node, Mapping) else {}


_TRUE = frozenset({"true", "yes", "on", "1"})
_FALSE = frozenset({"false", "no", "off", "0"})


def _as_bool(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
        return value.strip().lower() in _TRUE
    return None


def _as_number(value: Any, kind: type[int] | type[float]) -> Any:
    if isinstance(value, bool) or value is None:
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    if not math.isfinite(number):
        return None
    if kind is int:
        return int(number) if number.is_integer() else None
    return number


_COMPRESSION_KEYS: tuple[tuple[str, str, Callable[[Any], Any]], ...] = (
    ("threshold", "threshold_percent", lambda v: _as_number(v, float)),
    ("protect_first_n", "protect_first_n", lambda v: _as_number(v, int)),
    ("protect_last_n", "protect_last_n", lambda v: _as_number(v, int)),
    ("target_ratio", "summary_target_ratio", lambda v: _as_number(v, float)),
    ("abort_on_summary_failure", "abort_on_summary_failure", _as_bool),
    ("threshold_tokens", "threshold_tokens_cap", lambda v: _as_number(v, int)),
    ("model_thresholds", "model_thresholds", lambda v: dict(v) if isinstance(v, Mapping) else None),
    ("tail_mode", "tail_mode", lambda v: v if v in ("lean", "legacy") else None),
    ("min_tail_user_messages", "min_tail_user_messages", lambda v: _as_number(v, int)),
    ("proactive_prune_tokens", "proactive_prune_tokens", lambda v: _as_number(v, int)),
    (
        "proactive_prune_min_result_chars",
        "proactive_prune_min_result_chars",
        lambda v: _as_number(v, int),
    ),
    (
        "proactive_prune_min_reclaim_tokens",
        "proactive_prune_min_reclaim_tokens",
        lambda v: _as_number(v, int),
    ),
)


def compressor_arguments(
    config: Mapping[str, Any], accepted: Collection[str]
) -> tuple[dict[str, Any], tuple[str, ...]]:
    """Keyword arguments for the base ``ContextCompressor`` from ``compression.*``.

    Only parameters named in ``accepted`` (the base constructor's) are passed, so one plugin fits
    Hermes releases whose constructors differ. Returns the arguments and the problems found.
    """
    section = _section(config, "compression")
    arguments: dict[str, Any] = {"model": ""}
    problems: list[str] = []
    configured_length = _as_number(_section(config, "model").get("context_length"), int)
    if "config_context_length" in accepted:
        length = configured_length if configured_length and configured_length > 0 else None
        arguments["config_context_length"] = length or PLACEHOLDER_CONTEXT_LENGTH
    for key, parameter, parse in _COMPRESSION_KEYS:
        if parameter not in accepted or section.get(key) is None:
            continue
        value = parse(section[key])
        if value is None:
            problems.append(
                f"compression.{key}={section[key]!r} is not valid; using Hermes's default"
            )
        else:
            arguments[parameter] = value
    return arguments, tuple(problems)
