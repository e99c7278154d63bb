"""``context.vcc`` and ``compression`` settings: defaults, clamping, unparseable values."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from conftest import REPO

from plugin.settings import (
    PLACEHOLDER_CONTEXT_LENGTH,
    VccSettings,
    compressor_arguments,
    read_settings,
)


def test_settings_json_names_every_setting_in_order() -> None:
    keys = json.loads((REPO / "plugin" / "settings.json").read_text(encoding="utf-8"))
    assert [setting.name for setting in dataclasses.fields(VccSettings)] == list(keys)


def vcc(**values: Any) -> dict[str, Any]:
    return {"context": {"engine": "vcc", "vcc": values}}


@pytest.mark.parametrize(
    ("config", "expected", "problem"),
    [
        ({}, VccSettings(), None),
        ({"context": None}, VccSettings(), None),
        (vcc(budget_ratio=0.1), VccSettings(budget_ratio=0.1), None),
        (vcc(budget_ratio="0.2"), VccSettings(budget_ratio=0.2), None),
        (vcc(budget_ratio=5), VccSettings(budget_ratio=0.30), "outside 0.01-0.3"),
        (vcc(budget_ratio=0), VccSettings(budget_ratio=0.01), "outside 0.01-0.3"),
        (vcc(budget_ratio="lots"), VccSettings(), "'lots' is not valid; using 0.06"),
        (vcc(budget_ratio=float("nan")), VccSettings(), "is not valid"),
        (vcc(budget_ratio=True), VccSettings(), "is not valid"),
        (vcc(min_budget_tokens=100), VccSettings(min_budget_tokens=300), "outside 300-50000"),
        (vcc(min_budget_tokens=2000.0), VccSettings(min_budget_tokens=2000), None),
        (vcc(min_budget_tokens=2000.5), VccSettings(), "is not valid; using 1500"),
        (vcc(max_budget_tokens=10**9), VccSettings(max_budget_tokens=100_000), "outside"),
        (vcc(fallback_to_llm=False), VccSettings(fallback_to_llm=False), None),
        (vcc(fallback_to_llm="off"), VccSettings(fallback_to_llm=False), None),
        (vcc(fallback_to_llm="maybe"), VccSettings(), "'maybe' is not valid; using True"),
        (vcc(fast_anchors=0), VccSettings(fast_anchors=False), None),
        (vcc(binary="~/bin/vcc"), VccSettings(binary="~/bin/vcc"), None),
        (vcc(binary=""), VccSettings(), "is not valid; using None"),
        (vcc(request_timeout_seconds=0.1), VccSettings(request_timeout_seconds=1.0), "outside"),
        (vcc(request_timeout_seconds=90), VccSettings(request_timeout_seconds=90.0), None),
        (vcc(budget_ration=0.1), VccSettings(), "budget_ration is not a vcc setting"),
    ],
)
def test_read_settings_clamps_and_defaults(
    config: dict[str, Any], expected: VccSettings, problem: str | None
) -> None:
    read = read_settings(config)
    assert read.settings == expected
    if problem is None:
        assert read.problems == ()
    else:
        assert len(read.problems) == 1 and problem in read.problems[0]


ALL_PARAMETERS = frozenset(
    {
        "model",
        "config_context_length",
        "threshold_percent",
        "protect_first_n",
        "protect_last_n",
        "summary_target_ratio",
        "abort_on_summary_failure",
        "tail_mode",
    }
)


def test_compressor_arguments_map_compression_keys_to_constructor_parameters() -> None:
    config = {
        "model": {"context_length": 98_000},
        "compression": {
            "threshold": 0.75,
            "protect_first_n": "2",
            "protect_last_n": 6,
            "target_ratio": 0.3,
            "abort_on_summary_failure": "true",
            "tail_mode": "legacy",
            "in_place": True,
        },
    }
    arguments, problems = compressor_arguments(config, ALL_PARAMETERS)
    assert arguments == {
        "model": "",
        "config_context_length": 98_000,
        "threshold_percent": 0.75,
        "protect_first_n": 2,
        "protect_last_n": 6,
        "summary_target_ratio": 0.3,
        "abort_on_summary_failure": True,
        "tail_mode": "legacy",
    }
    assert problems == ()


def test_compressor_arguments_pass_only_what_this_hermes_release_accepts() -> None:
    config = {"compression": {"threshold": 0.8, "tail_mode": "lean", "threshold_tokens": 9}}
    arguments, _ = compressor_arguments(config, {"model", "threshold_percent"})
    assert arguments == {"model": "", "threshold_percent": 0.8}


def test_compressor_arguments_default_unparseable_values_and_say_so() -> None:
    config = {"model": {"context_length": "big"}, "compression": {"protect_last_n": "many"}}
    arguments, problems = compressor_arguments(config, ALL_PARAMETERS)
    assert "protect_last_n" not in arguments
    assert arguments["config_context_length"] == PLACEHOLDER_CONTEXT_LENGTH
    assert problems == ("compression.protect_last_n='many' is not valid; using Hermes's default",)
