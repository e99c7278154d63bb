"""The engine finishes a projection as Hermes's own summary step finishes a model's summary, and
books it as Hermes books a summary, against the stand-in ``ContextCompressor`` (which has the 0.22
members; a test removes some to stand for 0.19). The projection comes from the real ``vcc serve``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from conftest import REPO, make_engine

from plugin import engine as engine_module
from plugin.bridge import BridgeClient
from plugin.engine import VccEngine

pytestmark = pytest.mark.stand_in

SECRET = "sk-abcdefghijkl0123"
WINDOW: list[dict[str, Any]] = [
    {"role": "user", "content": "Deploy the service to staging", "_row_id": 10},
    {
        "role": "assistant",
        "content": "Loading the deploy skill.",
        "tool_calls": [
            {
                "id": "call_1",
                "type": "function",
                "function": {"name": "skill_view", "arguments": '{"name": "deploy"}'},
            }
        ],
        "_row_id": 11,
    },
    {"role": "tool", "tool_call_id": "call_1", "content": "skill loaded", "_row_id": 12},
    {"role": "user", "content": "[CONTEXT COMPACTION — REFERENCE ONLY] an older summary"},
    {"role": "assistant", "content": "Deployed.", "_row_id": 14},
]
"""A window whose newest real user message is row 10 (the message after it is Hermes's own)."""

GROUNDED = "User asked (deterministic, from compacted turns): 'Deploy the service to staging'"
"""The line Hermes's (stand-in) grounding writes for ``WINDOW``."""

PROJECTION_FAILED = "vcc: projection of"


@pytest.fixture(autouse=True)
def vcc_serve(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine's bridge starts ``vcc serve`` from this checkout; warnings logged once per
    process are logged again in each test."""
    monkeypatch.setenv("VCC_BIN", str(REPO / "main.ts"))
    monkeypatch.setattr(engine_module, "_logged", set())


@pytest.fixture
def engine() -> VccEngine:
    """An engine in session ``s1`` whose failed projection takes Hermes's deterministic fallback."""
    return make_engine("s1", fallback_to_llm=False)


class Projections:
    """Records every ``project`` request and lets a test act on each result before the engine
    finishes it."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.requests: list[dict[str, Any]] = []
        self.on_result: Callable[[dict[str, Any], dict[str, Any]], None] = lambda _p, _r: None
        original = BridgeClient.project

        def project(client: BridgeClient, params: Any, deadline: Any) -> dict[str, Any]:
            self.requests.append(dict(params))
            result = original(client, params, deadline)
            self.on_result(params, result)
            return result

        monkeypatch.setattr(BridgeClient, "project", project)


@pytest.fixture
def projections(monkeypatch: pytest.MonkeyPatch) -> Projections:
    return Projections(monkeypatch)


def with_refs(params: dict[str, Any], result: dict[str, Any]) -> None:
    """Adds ``refs`` as vcc's ``project`` result carries it: per message, ``#N`` for a stored row
    (its ``_row_id``), else ``tN`` for its 1-based position."""
    result["refs"] = [
        f"#{m['_row_id']}" if "_row_id" in m else f"t{i + 1}"
        for i, m in enumerate(params["messages"])
    ]


def failures(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if PROJECTION_FAILED in r.getMessage()]


# -- cancelled and superseded attempts -----------------------------------------------------------


def test_a_cancelled_attempt_raises_hermess_cancellation_and_asks_vcc_nothing(
    projections: Projections,
    engine: VccEngine,
) -> None:
    from agent.auxiliary_client import AuxiliaryExplicitCancellation

    engine._previous_summary = "## Goal\nearlier"
    engine._compression_cancelled_check = lambda: True
    with pytest.raises(AuxiliaryExplicitCancellation):
        engine._generate_summary(WINDOW)
    assert projections.requests == []
    assert engine._previous_summary == "## Goal\nearlier"


def test_an_attempt_cancelled_during_the_projection_records_nothing(
    projections: Projections,
    engine: VccEngine,
) -> None:
    from agent.auxiliary_client import AuxiliaryExplicitCancellation

    engine._previous_summary = "## Goal\nearlier"
    engine._summary_failure_cooldown_until = 10.0**9
    cancelled: list[bool] = []
    engine._compression_cancelled_check = lambda: bool(cancelled)
    projections.on_result = lambda _params, _result: cancelled.append(True)
    with pytest.raises(AuxiliaryExplicitCancellation):
        engine._generate_summary(WINDOW)
    assert len(projections.requests) == 1
    assert engine._previous_summary == "## Goal\nearlier"
    assert engine._summary_failure_cooldown_until == 10.0**9, "the host's cooldown stays"


@pytest.fixture
def superseded() -> Iterator[None]:
    """This context runs attempt 1 while attempt 2 has begun summary work (as after Hermes's
    stall fallback detached attempt 1)."""
    from agent import conversation_compression

    token = conversation_compression.ATTEMPT_GENERATION.set(1)
    try:
        yield
    finally:
        conversation_compression.ATTEMPT_GENERATION.reset(token)


@pytest.mark.usefixtures("superseded")
@pytest.mark.parametrize("route", ["summary step", "deterministic route"])
def test_a_superseded_attempt_does_not_overwrite_the_previous_summary(
    projections: Projections, route: str, engine: VccEngine
) -> None:
    from agent.auxiliary_client import AuxiliaryExplicitCancellation

    engine._previous_summary = "## Goal\nwritten by attempt 2"
    engine._compression_working_attempt_generation = 2  # type: ignore[attr-defined]
    with pytest.raises(AuxiliaryExplicitCancellation):
        if route == "summary step":
            engine._generate_summary(WINDOW)
        else:
            engine._fallback_summary_for_window({}, WINDOW, len(WINDOW), True)
    assert len(projections.requests) == 1, "vcc projected; the result was not recorded"
    assert engine._previous_summary == "## Goal\nwritten by attempt 2"


# -- what the projection is given --------------------------------------------------------------


def test_the_previous_summary_and_the_focus_topic_are_redacted_before_vcc_gets_them(
    projections: Projections,
    engine: VccEngine,
) -> None:
    engine._previous_summary = f"## Goal\nuse key {SECRET}"
    assert engine._generate_summary(WINDOW, focus_topic=f"the key {SECRET}") is not None
    (request,) = projections.requests
    assert SECRET not in str(request["previous"]) and "sk-***" in str(request["previous"])
    assert request["focus"] == "the key sk-***"


# -- Hermes's post-processing --------------------------------------------------------------------


def pruned(skill: str) -> str:
    """Hermes's marker for a skill whose instructions compaction pruned."""
    return f"[SKILL_PRUNED: content lost in compression; reload with skill_view(name='{skill}')]"


def test_pruned_skill_markers_the_projection_lacks_are_put_back(engine: VccEngine) -> None:
    engine._previous_summary = f"## Goal\nearlier\n{pruned('release')}"
    turns = [*WINDOW[:2], {**WINDOW[2], "content": pruned("deploy")}]
    summary = engine.finish_summary("## Goal\nDeploy the service", turns)
    block = summary.split("## Pruned Skills\n", 1)[1].splitlines()
    assert block == [pruned("deploy"), pruned("release")]


def test_markers_the_projection_quotes_are_not_repeated(engine: VccEngine) -> None:
    turns = [*WINDOW[:2], {**WINDOW[2], "content": pruned("deploy")}]
    summary = engine.finish_summary(f"## Goal\nDeploy\n\n## Log\n{pruned('deploy')}", turns)
    assert "## Pruned Skills" not in summary and summary.count(pruned("deploy")) == 1


NO_USER_WINDOW = [m for m in WINDOW if m["role"] != "user"]


@pytest.mark.parametrize(
    ("fallback_to_llm", "route"),
    [(False, "Hermes's deterministic fallback"), (True, "Hermes's LLM summary")],
)
def test_a_projection_hermes_refuses_takes_the_configured_fallback(
    projections: Projections,
    caplog: pytest.LogCaptureFixture,
    fallback_to_llm: bool,
    route: str,
) -> None:
    from agent.context_compressor import LLM_SUMMARY, STATIC_FALLBACK

    engine = make_engine("s1", fallback_to_llm=fallback_to_llm)
    # Hermes's scan says the session has no user turn, yet the window quotes one: Hermes refuses.
    engine._summary_has_user_turn = False
    messages = [{"role": "system", "content": "sys"}, *WINDOW, *NO_USER_WINDOW[:2]]
    compressed = engine.compress(messages, force=True)
    summary = next(m["content"] for m in compressed if m.get("_compressed_summary"))
    assert summary.endswith(LLM_SUMMARY if fallback_to_llm else STATIC_FALLBACK)
    assert len(projections.requests) == 1, "vcc was asked once, not again by the fallback"
    assert failures(caplog) == [
        f"vcc: projection of {len(WINDOW)} turns failed (ProjectionRejected: Hermes "
        "refused it: it names a user request, and the session has no user turn); "
        f"using {route} for this compaction"
    ]
    assert engine._previous_summary is None or "vcc projection" not in engine._previous_summary


def test_whether_the_session_has_a_user_turn_comes_from_hermess_scan_first(
    engine: VccEngine,
) -> None:
    engine._summary_has_user_turn = False  # Hermes's scan saw none, whatever the window holds
    assert engine._generate_summary(WINDOW) is None
    engine._summary_has_user_turn = None  # no scan: the window decides
    assert engine._generate_summary(WINDOW) is not None


def test_turns_without_a_user_turn_pass_hermess_check_with_its_sentinel(engine: VccEngine) -> None:
    from agent.context_compressor import NO_USER_TASK_SENTINEL

    engine._summary_has_user_turn = None
    summary = engine._generate_summary(NO_USER_WINDOW)
    assert summary is not None, "Hermes accepted the projection"
    assert f"## Historical Task Snapshot\n{NO_USER_TASK_SENTINEL}\n" in summary


def test_a_projection_clears_the_failure_state_hermess_summary_step_clears(
    engine: VccEngine,
) -> None:
    engine._summary_model_fallen_back = True
    engine._consecutive_overload_aborts = 3
    engine._last_summary_error = "summary model timed out"
    assert engine._generate_summary(WINDOW) is not None
    assert not engine._summary_model_fallen_back
    assert engine._consecutive_overload_aborts == 0
    assert engine._last_summary_error is None


def test_on_a_release_without_the_022_additions_the_projection_is_finished_as_there(
    monkeypatch: pytest.MonkeyPatch, projections: Projections
) -> None:
    import agent.context_compressor as compressor
    from agent import conversation_compression

    for name in (
        "_compression_cancelled",
        "_validate_summary_user_provenance",
        "_reset_consecutive_overload_aborts",
    ):
        monkeypatch.delattr(compressor.ContextCompressor, name)
    for name in ("_collect_ghosted_skill_names", "_reinject_pruned_skill_markers"):
        monkeypatch.delattr(compressor, name)
    monkeypatch.delattr(conversation_compression, "_raise_if_stale_attempt")
    engine = make_engine("s1", fallback_to_llm=False)
    assert not engine.passthrough
    engine._consecutive_overload_aborts = 3
    turns = [*WINDOW[:2], {**WINDOW[2], "content": pruned("deploy")}]
    summary = engine._generate_summary(turns)
    assert summary is not None and GROUNDED in summary
    assert engine._consecutive_overload_aborts == 3, "this release counts no overloads"
    assert engine._generate_summary(NO_USER_WINDOW) is not None, "no provenance check"


# -- the task snapshot keeps its reference -------------------------------------------------------


def snapshot_line(summary: str) -> str:
    return summary.split("## Historical Task Snapshot\n", 1)[1].splitlines()[0]


def test_hermess_snapshot_line_starts_with_the_reference_of_the_message_it_quotes(
    projections: Projections,
    engine: VccEngine,
) -> None:
    projections.on_result = with_refs
    summary = engine._generate_summary(WINDOW)
    assert summary is not None and snapshot_line(summary) == f"[#10] {GROUNDED}"


@pytest.mark.parametrize(
    "refs",
    [
        pytest.param(None, id="no refs"),
        pytest.param(["#10", "#11", "#12", "t4"], id="one label short"),
        pytest.param([None, "#11", "#12", "t4", "#14"], id="no label for the quoted message"),
        pytest.param(["10", "#11", "#12", "t4", "#14"], id="not a label"),
    ],
)
def test_without_a_label_for_the_quoted_message_hermess_line_stays_as_it_is(
    refs: list[str | None] | None,
    engine: VccEngine,
) -> None:
    summary = engine.finish_summary("## Goal\nDeploy", WINDOW, refs=refs)
    assert snapshot_line(summary) == GROUNDED


def test_a_window_without_a_user_message_keeps_the_projections_snapshot(engine: VccEngine) -> None:
    engine._summary_has_user_turn = True
    body = "## Historical Task Snapshot\n[#3] Deploy the service\n\n## Goal\nDeploy"
    refs = ["#11", "#12", "#14"]
    summary = engine.finish_summary(body, NO_USER_WINDOW, refs=refs)
    assert snapshot_line(summary) == "[#3] Deploy the service"


def test_the_next_projection_reads_the_reference_back(
    projections: Projections, engine: VccEngine
) -> None:
    projections.on_result = with_refs
    assert engine._generate_summary(WINDOW) is not None
    engine._summary_has_user_turn = True
    later = [{"role": "assistant", "content": "Checked the logs.", "_row_id": 20}]
    summary = engine._generate_summary(later)
    assert summary is not None
    assert snapshot_line(summary) == "[#10] Deploy the service to staging"


# -- booking -------------------------------------------------------------------------------------


def host_compaction(engine: VccEngine, *, force: bool = False) -> str:
    """A compaction as Hermes's host runs one: ``compress``, then the boundary booked from the
    engine's flags. Returns the summary."""
    messages = [{"role": "system", "content": "sys"}, *WINDOW, *WINDOW[:2]]
    compressed = engine.compress(messages, force=force)
    engine.record_completed_compaction(
        used_fallback=engine._last_summary_fallback_used,
        feasibility_skip=engine._last_feasibility_skip,
    )
    return str(next(m["content"] for m in compressed if m.get("_compressed_summary")))


def test_a_projection_on_hermess_deterministic_route_is_booked_as_a_summary(
    engine: VccEngine,
) -> None:
    engine._ineffective_compression_count = 1  # Hermes skips its summary step
    engine._fallback_compression_streak = 2  # after two failed summaries
    for _ in range(2):
        summary = host_compaction(engine)
        assert GROUNDED in summary and engine.llm_calls == 0
        assert not engine._last_summary_fallback_used
        assert engine.last_telemetry == {"fallback_used": False, "failure_class": None}
        assert engine._fallback_compression_streak == 0


def test_a_failed_projection_on_the_deterministic_route_is_hermess_fallback(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Any,
    caplog: pytest.LogCaptureFixture,
    engine: VccEngine,
) -> None:
    from agent.context_compressor import STATIC_FALLBACK

    monkeypatch.setenv("VCC_BIN", str(tmp_path / "missing-vcc"))
    engine._ineffective_compression_count = 1
    for streak in (1, 2):
        assert host_compaction(engine, force=True).endswith(STATIC_FALLBACK)
        assert engine._last_summary_fallback_used
        assert engine._fallback_compression_streak == streak
        assert len(failures(caplog)) == streak, "one projection per compaction, not retried"
    assert host_compaction(engine).endswith(STATIC_FALLBACK)
    assert len(failures(caplog)) == 3
    assert engine.last_telemetry["failure_class"] == "feasibility_skip"
    assert engine._fallback_compression_streak == 2, "a skip leaves the streak as it was"
