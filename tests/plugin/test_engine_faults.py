"""One compaction against a slow, hung, broken or talkative ``vcc serve``: every wait ends by one
deadline, a fixed executable is used at once, and no transcript text reaches the log."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from conftest import REPO, SERVE_FROM_SOURCE, fake_server, make_engine, shell_script, started
from fake_server import BODY

from plugin import bridge, fast_anchors
from plugin import engine as engine_module
from plugin.binary import locate_server
from plugin.bridge import BridgeClient
from plugin.deadline import Deadline
from plugin.engine import VccEngine
from plugin.fast_anchors import FastAnchors
from plugin.manifest import plugin_version
from plugin.server_process import ServerProcess

SECRET = "SECRET-words-from-the-transcript"
WINDOW: list[dict[str, Any]] = [
    {"role": "user", "content": f"Fix the build; {SECRET}", "_row_id": 1},
    {"role": "assistant", "content": "Looking.", "_row_id": 2},
]


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


class Waits:
    """Records the deadline the engine gives each bridge call and each wait for an answer."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls: list[tuple[str, Any]] = []
        self.answers: list[tuple[str, Deadline]] = []
        client_call, server_call = BridgeClient.call, ServerProcess.call

        def call(client: BridgeClient, method: str, params: Any, deadline: Any) -> Any:
            self.calls.append((method, deadline))
            return client_call(client, method, params, deadline)

        def answer(server: ServerProcess, method: str, params: Any, deadline: Any) -> Any:
            self.answers.append((method, Deadline.of(deadline)))
            return server_call(server, method, params, deadline)

        monkeypatch.setattr(BridgeClient, "call", call)
        monkeypatch.setattr(ServerProcess, "call", answer)


def test_every_wait_of_a_compaction_ends_by_one_deadline(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    timeout = 5.0  # shorter than the client's own limit on starting vcc, 10 s
    use_executable(monkeypatch, tmp_path / "vcc", fake_server("answer", plugin_version(), "0.2"))
    waits = Waits(monkeypatch)
    before = time.monotonic()
    engine = make_engine(request_timeout_seconds=timeout, fallback_to_llm=False)
    summary = engine._generate_summary(WINDOW)
    after = time.monotonic()
    assert summary is not None and BODY.strip() in summary
    # The anchor check and the projection share one deadline, set once for the compaction ...
    assert [method for method, _ in waits.calls] == ["anchors", "project"]
    deadline = waits.calls[0][1]
    assert isinstance(deadline, Deadline) and waits.calls[1][1] is deadline
    assert before + timeout <= deadline.expires_at <= after + timeout
    # ... and starting vcc and both answers end by it.
    assert [method for method, _ in waits.answers] == ["initialize", "anchors", "project"]
    assert all(wait.expires_at <= deadline.expires_at for _, wait in waits.answers)


@pytest.mark.parametrize(
    "server",
    [
        pytest.param(("hang",), id="hung at start (start timeout 10 s)"),
        pytest.param(("answer", plugin_version(), "1.5"), id="1.5 s for each answer"),
    ],
)
def test_a_slow_server_holds_a_compaction_for_one_timeout_not_one_per_step(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    server: tuple[str, ...],
) -> None:
    timeout = 2.0
    use_executable(monkeypatch, tmp_path / "vcc", fake_server(*server))
    began = time.monotonic()
    engine = make_engine(request_timeout_seconds=timeout, fallback_to_llm=False)
    summary = engine._generate_summary(WINDOW)
    elapsed = time.monotonic() - began
    assert summary is None
    assert "vcc: projection of 2 turns failed" in caplog.text
    # One timeout is 2 s; a fresh timeout per step (start, anchor check, projection) would be 4 s
    # or more, 20 s when each start waits its own 10 s.
    assert elapsed < 1.5 * timeout


@pytest.fixture
def client_without_backoff() -> None:
    """The process's client restarts a failed executable without delay (it still counts)."""
    bridge.shared_client(
        lambda: BridgeClient(
            lambda: locate_server(None), expected_version=plugin_version(), backoff_seconds=0.0
        )
    )


def fallbacks(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if "vcc: projection of" in r.getMessage()]


def test_after_a_version_mismatch_pointing_vcc_bin_at_a_good_vcc_projects_at_once(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    starts: Path,
) -> None:
    use_executable(monkeypatch, tmp_path / "old-vcc", fake_server("answer", "0.0.0-other", "0"))
    engine = make_engine(request_timeout_seconds=60.0, fallback_to_llm=False)
    assert engine._generate_summary(WINDOW) is None
    assert engine._generate_summary(WINDOW) is None
    assert "is vcc 0.0.0-other, but this plugin is" in caplog.text
    assert all("not starting vcc for another" in line for line in fallbacks(caplog))
    assert started(starts) == 1
    monkeypatch.setenv("VCC_BIN", str(REPO / "main.ts"))
    summary = engine._generate_summary(WINDOW)
    assert summary is not None and "## " in summary


@pytest.mark.usefixtures("client_without_backoff")
def test_a_broken_executable_fixed_in_place_projects_at_once(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    starts: Path,
) -> None:
    vcc = tmp_path / "vcc"
    use_executable(monkeypatch, vcc, fake_server("silent-exit"))
    engine = make_engine(request_timeout_seconds=60.0, fallback_to_llm=False)
    for _ in range(5):
        assert engine._generate_summary(WINDOW) is None
    # The anchor check and four projections failed, five in a row; the fifth is not started.
    assert "not starting vcc for another" in fallbacks(caplog)[-1]
    assert started(starts) == 5
    use_executable(monkeypatch, vcc, SERVE_FROM_SOURCE)
    summary = engine._generate_summary(WINDOW)
    assert summary is not None and "## " in summary


def fail_post_processing(engine: VccEngine) -> None:
    """Hermes's post-processing of the projection raises an error that quotes the window."""

    def finish_summary(body: str, turns: list[dict[str, Any]], *_args: Any, **_kwargs: Any) -> str:
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
    engine = make_engine(request_timeout_seconds=60.0, fallback_to_llm=False)
    breaks(engine)
    with caplog.at_level(logging.DEBUG):
        assert engine._generate_summary(WINDOW) is None
    assert len(fallbacks(caplog)) == 1
    assert all(fragment in caplog.text for fragment in logged), caplog.text
    assert SECRET not in caplog.text
