"""The cases vcc's and the plugin's tests share (``tests/shared``), against this Hermes release
itself: its own token count of each window, and the budget the engine gives vcc under it."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest
from agent.model_metadata import estimate_messages_tokens_rough
from hermes_release import RELEASE
from hermes_sandbox import REPO

sys.path.insert(0, str(REPO))

from plugin.engine import VccEngine  # importable once the checkout is on the path

SHARED = REPO / "tests" / "shared"
TOKEN_CASES = json.loads((SHARED / "hermes_tokens.json").read_text(encoding="utf-8"))["cases"]
BUDGET_CASES = json.loads((SHARED / "projection_budget.json").read_text(encoding="utf-8"))["cases"]


def what(case: dict[str, Any]) -> str:
    return str(case["what"])


@pytest.mark.parametrize("case", TOKEN_CASES, ids=what)
def test_hermes_counts_each_shared_window_as_recorded(case: dict[str, Any]) -> None:
    recorded = case.get("tokens", {})
    assert RELEASE.name in recorded, f"no count for {RELEASE.name}; run `deno task fixtures`"
    assert estimate_messages_tokens_rough(case["messages"]) == recorded[RELEASE.name]


@pytest.mark.parametrize("case", BUDGET_CASES, ids=what)
def test_the_engine_gives_vcc_the_shared_budget(case: dict[str, Any]) -> None:
    turns = [{"role": "user", "content": "x" * case["content_chars"]}]
    assert estimate_messages_tokens_rough(turns) == case["window_tokens"]
    config = {
        "model": {"context_length": case["context_tokens"]},
        "context": {"vcc": case["settings"]},
    }
    engine = VccEngine(config=config)
    assert engine.context_length == case["context_tokens"]
    assert engine.projection_budget_tokens(turns) == case["budget_tokens"]
