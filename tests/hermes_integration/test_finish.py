"""The engine finishes and books a projection as Hermes finishes and books its own summary, inside a
real Hermes and as far as each release has the machinery: a cancelled or superseded attempt records
nothing, Hermes's own redaction, checks and markers apply, the task snapshot cites the message
Hermes quotes, and a projection Hermes takes on its deterministic route (its pre-LLM skip, a pinned
deterministic summary) counts as a summary, so it never benches Hermes's summary step or blocks
automatic compaction."""

from __future__ import annotations

import ast
import logging
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import agent.context_compressor as compressor_module
import pytest
from hermes_release import RELEASE
from hermes_sandbox import (
    Pass,
    Sandbox,
    compact,
    hermes_compaction_redaction,
    load_history,
    store_rows,
)
from hermes_state import SessionDB
from sample_windows import CREDENTIALS, CREDENTIALS_TARGET, SECRETS, generated_window
from summary_checks import (
    PROJECTION_SECTIONS,
    Evidence,
    citation_problems,
    headings,
    sections,
)

SESSION_ID = "20261130_131500_c3c3c3"


@dataclass
class Session:
    """A stored session and the agent Hermes built for it, with the vcc engine it loaded."""

    store: SessionDB
    agent: Any

    @property
    def engine(self) -> Any:
        return self.agent.context_compressor

    def history(self) -> list[dict[str, Any]]:
        """The session's active rows, as Hermes loads them."""
        return load_history(self.store, SESSION_ID)

    def add(self, seed: int, tokens: int) -> None:
        """Appends a generated window of about ``tokens`` tokens."""
        store_rows(self.store, SESSION_ID, generated_window(seed, tokens))

    def fallback_streak(self) -> tuple[int, int]:
        """Hermes's fallback streak: in memory and as stored for the session."""
        stored = self.store.get_compression_fallback_streak(SESSION_ID)
        return self.engine._fallback_compression_streak, stored


def begin(sandbox: Sandbox, rows: list[dict[str, Any]], **vcc: Any) -> Session:
    """Installs the plugin (with ``vcc`` as ``context.vcc`` settings), stores ``rows`` as a
    session and loads an agent for it."""
    sandbox.copy_plugin()
    sandbox.write_config(vcc=vcc)
    store = sandbox.open_store()
    store.create_session(SESSION_ID, source="cli")
    store_rows(store, SESSION_ID, rows)
    return Session(store, sandbox.load_agent(SESSION_ID, store))


def has(feature: bool, what: str) -> pytest.MarkDecorator:
    return pytest.mark.skipif(not feature, reason=f"{RELEASE.name} has no {what}")


class Spy:
    """Records what each call of a method of the engine's class returned, calling it as before."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, engine: Any, name: str) -> None:
        self.results: list[Any] = []
        method = getattr(type(engine), name)

        def spied(*args: Any, **kwargs: Any) -> Any:
            result = method(*args, **kwargs)
            self.results.append(result)
            return result

        monkeypatch.setattr(type(engine), name, spied)


def assert_projected(done: Pass) -> None:
    """vcc projected the window once, no model was asked, and the summary is the projection."""
    assert done.llm.calls == []
    assert len([m for m in done.vcc_logs() if m.startswith("vcc: projected")]) == 1
    assert PROJECTION_SECTIONS[-1] in headings(done.summary)


# -- booking -------------------------------------------------------------------------------------


def assert_booked_as_summary(session: Session, done: Pass) -> None:
    """The pass was a projection, and Hermes booked it as a summary: no fallback in its telemetry
    or error state, a fallback streak of 0 and automatic compaction not blocked."""
    assert_projected(done)
    engine = session.engine
    telemetry = engine._last_compression_telemetry
    assert (telemetry["fallback_used"], telemetry["failure_class"]) == (False, None)
    assert engine._last_summary_error is None
    assert session.fallback_streak() == (0, 0)
    assert not engine._automatic_compression_blocked()


@has(RELEASE.pre_llm_skip, "pre-LLM summary skip (_feasibility_skip, _fallback_summary_for_window)")
def test_compactions_through_hermess_pre_llm_skip_are_booked_as_summaries(
    sandbox: Sandbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = begin(sandbox, generated_window(11, 16_000))
    engine = session.engine
    # One compaction did not help: Hermes now skips its summary step for a small middle. And one
    # summary fell back before: a summary resets that streak, a skip would leave it.
    engine._record_ineffective_compression_verdict(1)
    engine._fallback_compression_streak = 1
    engine._persist_fallback_compression_streak()
    skips = Spy(monkeypatch, engine, "_feasibility_skip")
    for seed in (12, 13):
        done = compact(session.agent, session.history(), force=False)
        assert skips.results[-1] is True, "Hermes skipped its summary step"
        assert_booked_as_summary(session, done)
        session.add(seed, 5_000)


@has(RELEASE.deterministic_pin, "pinned deterministic summary (DETERMINISTIC_SUMMARY_ROUTE)")
def test_projections_on_a_pinned_deterministic_route_keep_the_summary_step_in_use(
    sandbox: Sandbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = begin(sandbox, generated_window(21, 30_000))
    engine = session.engine
    summary_steps = Spy(monkeypatch, engine, "_generate_summary")
    for seed in (22, 23):
        with compressor_module.pin_summary_route(compressor_module.DETERMINISTIC_SUMMARY_ROUTE):
            done = compact(session.agent, session.history(), force=True)
        assert summary_steps.results == [], "the pinned route skipped the summary step"
        assert_booked_as_summary(session, done)
        session.add(seed, 12_000)
    # Two fallbacks in a row would bench the summary step; two summaries leave it in use.
    done = compact(session.agent, session.history(), force=False)
    assert len(summary_steps.results) == 1
    assert_projected(done)


# -- the finish step -----------------------------------------------------------------------------


@pytest.fixture
def superseded() -> Iterator[None]:
    """This context runs compaction attempt 1 of the host while attempt 2 does summary work."""
    import agent.conversation_compression as host

    token = host._COMPRESSOR_ATTEMPT_GENERATION.set(1)
    try:
        yield
    finally:
        host._COMPRESSOR_ATTEMPT_GENERATION.reset(token)


@has(RELEASE.attempt_checks, "checks for a cancelled or superseded compaction attempt")
@pytest.mark.parametrize(
    ("make_stale", "asks_vcc"),
    [
        pytest.param(lambda engine: setattr(engine, "_compression_cancelled_check", lambda: True),
                     False, id="cancelled"),
        pytest.param(lambda engine: setattr(engine, "_compression_working_attempt_generation", 2),
                     True, id="superseded"),
    ],
)  # fmt: skip
@pytest.mark.usefixtures("superseded")
def test_a_stale_attempt_raises_hermess_cancellation_and_records_nothing(
    sandbox: Sandbox,
    monkeypatch: pytest.MonkeyPatch,
    make_stale: Callable[[Any], None],
    asks_vcc: bool,
) -> None:
    from agent.auxiliary_client import AuxiliaryExplicitCancellation

    session = begin(sandbox, generated_window(41, 6_000))
    engine = session.engine
    engine._previous_summary = "## Goal\nwritten by the attempt that owns the compressor"
    projections = Spy(monkeypatch, engine, "build_projection_request")
    make_stale(engine)
    with pytest.raises(AuxiliaryExplicitCancellation):
        engine._generate_summary(session.history())
    assert len(projections.results) == (1 if asks_vcc else 0)
    assert engine._previous_summary == "## Goal\nwritten by the attempt that owns the compressor"


def test_vcc_gets_what_hermes_redacts_redacted_and_a_projection_clears_failure_state(
    sandbox: Sandbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = begin(sandbox, generated_window(81, 6_000))
    engine = session.engine
    engine._previous_summary = f"## Goal\nClone the repository.{CREDENTIALS}"
    engine._summary_model_fallen_back = True
    counts_overloads = callable(getattr(engine, "_reset_consecutive_overload_aborts", None))
    if counts_overloads:
        engine._consecutive_overload_aborts = 2
        engine._persist_consecutive_overload_aborts()
    requests = Spy(monkeypatch, engine, "build_projection_request")
    summary = engine._generate_summary(session.history(), focus_topic=f"the clone{CREDENTIALS}")
    assert summary is not None
    (request,) = requests.results
    redacted = hermes_compaction_redaction(CREDENTIALS)
    masked = [secret for secret in SECRETS if secret not in redacted]
    assert masked, "Hermes masks at least one of the credentials"
    sent = f"{request['previous']}\n{request['focus']}"
    assert CREDENTIALS_TARGET in request["focus"] and [s for s in masked if s in sent] == []
    assert not engine._summary_model_fallen_back
    if counts_overloads:
        assert engine._consecutive_overload_aborts == 0
        assert session.store.get_compression_overload_streak(SESSION_ID) == 0


@has(RELEASE.provenance_check, "user-provenance check (_validate_summary_user_provenance)")
def test_a_session_without_a_user_turn_gets_a_projection_hermes_accepts(sandbox: Sandbox) -> None:
    rows = [row for row in generated_window(51, 20_000) if row["role"] != "user"]
    session = begin(sandbox, rows, fallback_to_llm=False)
    done = compact(session.agent, session.history(), force=True)
    assert done.llm.calls == [] and len(done.requests) == 1
    assert [m for m in done.vcc_logs(logging.WARNING) if "ProjectionRejected" in m] == []
    snapshot = sections(done.summary)[PROJECTION_SECTIONS[0]]
    assert snapshot[0] == compressor_module._NO_USER_TASK_SENTINEL, "in Hermes's own words"
    assert "(vcc projection of session" in done.summary, "the projection is the summary"


@has(RELEASE.skill_markers, "pruned-skill markers (_reinject_pruned_skill_markers)")
def test_a_skill_whose_instructions_compaction_drops_gets_hermess_marker(sandbox: Sandbox) -> None:
    session = begin(sandbox, generated_window(61, 4_000))
    skill = "deploy-service"
    call = {
        "id": "call_skill",
        "type": "function",
        "function": {"name": "skill_view", "arguments": f'{{"name": "{skill}"}}'},
    }
    turns = [
        *session.history(),
        {"role": "assistant", "content": "Loading the skill.", "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "call_skill", "content": "Step 1: build.\n" * 500},
    ]
    summary = session.engine._generate_summary(turns)
    marker = compressor_module._skill_pruned_marker(skill)
    assert summary is not None and summary.count(marker) == 1
    assert sections(summary)["## Pruned Skills"][0] == marker


# -- the task snapshot keeps its reference -------------------------------------------------------

GROUNDED = re.compile(r"\[#(\d+)\] User asked \(deterministic, from compacted turns\): (.+)")


def test_the_task_snapshot_cites_the_message_hermes_quotes(sandbox: Sandbox) -> None:
    rows = generated_window(71, 30_000)
    # Requests early in the session, in the window a compaction takes (white space collapsed in
    # Hermes's quote).
    rows[9:9] = [{"role": "user", "content": "Keep the CLI flags  as\tthey are."}]
    rows[14:14] = [{"role": "user", "content": "And  run the\nlinter before committing."}]
    session = begin(sandbox, rows)
    history = session.history()
    done = compact(session.agent, history, force=True)
    assert_projected(done)
    evidence = Evidence({m["_row_id"]: m for m in history}, hermes_compaction_redaction)
    assert citation_problems(done.summary, evidence) == []
    line = sections(done.summary)[PROJECTION_SECTIONS[0]][0]
    match = GROUNDED.fullmatch(line)
    assert match is not None, line
    # The newest request of the window (the generated rows have no user rows of Hermes's own).
    requests = [
        m
        for m in done.requests[0]["messages"]
        if m["role"] == "user" and not str(m["content"]).startswith("[")
    ]
    assert int(match[1]) == requests[-1]["_row_id"]
    assert ast.literal_eval(match[2]) == " ".join(requests[-1]["content"].split())
