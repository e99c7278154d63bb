"""One compaction against a misbehaving ``vcc serve``: no transcript text reaches the log."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from conftest import fake_server, shell_script

from plugin import engine as engine_module
from plugin import fast_anchors
from plugin.engine import VccEngine
from plugin.fast_anchors import FastAnchors
from plugin.manifest import plugin_version

SECRET = "SECRET-words-from-the-transcript"
WINDOW: list[dict[str, Any]] = [
    {"role": "user", "content": f"Fix the build; {SECRET}", "_row_id": 1},
    {"role": "assistant", "content": "Looking.", "_row_id": 2},
]


def make_engine(request_timeout_seconds: float) -> VccEngine:
    """An engine that falls back without a model, as Hermes's deterministic fallback does."""
    vcc = {"request_timeout_seconds": request_timeout_seconds, "fallback_to_llm": False}
    return VccEngine(config={"model": {"context_length": 128_000}, "context": {"vcc": vcc}})


@pytest.fixture(autouse=True)
def fast_anchor_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine asks vcc for the fast-anchor sample check before its first projection, against
    a Hermes builder that finds no anchors, whichever Hermes (or stand-in) is installed."""
    hermes = SimpleNamespace(_build_anchor_index=lambda turns: "")
    monkeypatch.setattr(fast_anchors, "FAST_ANCHORS", FastAnchors(lambda: hermes))
    monkeypatch.setattr(VccEngine, "wants_fast_anchors", lambda self: True)
    monkeypatch.setattr(engine_module, "_logged", set())


def use_executable(monkeypatch: pytest.MonkeyPatch, path: Path, argv: tuple[str, ...]) -> None:
    """``VCC_BIN`` names an executable at ``path`` that runs ``argv``."""
    monkeypatch.setenv("VCC_BIN", str(shell_script(path, argv)))


def fallbacks(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if "vcc: projection of" in r.getMessage()]


def fail_post_processing(engine: VccEngine) -> None:
    """Hermes's post-processing of the projection raises an error that quotes the window."""

    def finish_summary(body: str, turns: list[dict[str, Any]], anchors: Any = None) -> str:
        raise ValueError(f"cannot finish: {turns[0]['content']}")

    engine.finish_summary = finish_summary  # type: ignore[method-assign]


@pytest.mark.parametrize(
    ("server", "breaks", "logged"),
    [
        pytest.param(
            ("quote", plugin_version()),
            lambda engine: None,
            ["could not read a request (error -32700)", "that are not a JSON-RPC response"],
            id="the server quotes the request",
        ),
        pytest.param(
            ("answer", plugin_version(), "0"),
            fail_post_processing,
            [f"ValueError at {Path(__file__).name}:"],
            id="post-processing fails quoting the window",
        ),
    ],
)
def test_no_transcript_text_reaches_the_log(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    server: tuple[str, ...],
    breaks: Callable[[VccEngine], None],
    logged: list[str],
) -> None:
    use_executable(monkeypatch, tmp_path / "vcc", fake_server(*server))
    engine = make_engine(60.0)
    breaks(engine)
    with caplog.at_level(logging.DEBUG):
        assert engine._generate_summary(WINDOW) is None
    assert len(fallbacks(caplog)) == 1
    assert all(fragment in caplog.text for fragment in logged), caplog.text
    assert SECRET not in caplog.text
