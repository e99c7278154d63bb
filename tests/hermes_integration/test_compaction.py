"""Full compactions through Hermes's host flow with the vcc engine Hermes loaded (see
``scenarios.py``), with Hermes's summary model patched to fail: each test checks one property of
every scenario, and the last ones what a particular scenario is there for."""

from __future__ import annotations

import json
import logging
import re

import pytest
from agent.model_metadata import estimate_messages_tokens_rough
from hermes_release import RELEASE
from hermes_sandbox import hermes_compaction_redaction
from sample_windows import CREDENTIALS, CREDENTIALS_TARGET, SECRETS
from scenarios import Compaction
from summary_checks import (
    HEADING_OF,
    PROJECTION_SECTIONS,
    Evidence,
    citation_problems,
    projection_text,
    references,
    section_problems,
    sections,
    tool_pair_problems,
)

SESSION_LOG = PROJECTION_SECTIONS[-1]
STUB = re.compile(r"^\[\w+\] ")


def test_the_summary_row_carries_the_projection(compaction: Compaction) -> None:
    for done in compaction.passes:
        assert done.requests, "the engine sent a window to vcc"
        assert section_problems(done.summary) == []
        snapshot = sections(done.summary)[PROJECTION_SECTIONS[0]]
        # The reference of the quoted request comes first when vcc reports it (``refs``).
        grounded = re.sub(r"^\[#\d+\] ", "", snapshot[0])
        assert grounded.startswith("User asked"), "Hermes grounded the task snapshot"


FAST_ANCHORS_OFF_FOR_UNICODE = "vcc: fast anchors are off for this process: vcc classifies"


def test_no_model_is_called_and_vcc_projects_every_pass(compaction: Compaction) -> None:
    warnings: list[str] = []
    for done in compaction.passes:
        assert done.llm.calls == []
        projected = [m for m in done.vcc_logs() if m.startswith("vcc: projected")]
        assert len(projected) == 1 and "(no LLM call)" in projected[0]
        warnings += done.vcc_logs(logging.WARNING)
    # Once per process, on a Python whose Unicode is not the one vcc's anchor tables follow.
    fast_anchors_off = [w for w in warnings if w.startswith(FAST_ANCHORS_OFF_FOR_UNICODE)]
    assert len(fast_anchors_off) <= (0 if RELEASE.unicode_as_vcc else 1)
    assert [w for w in warnings if w not in fast_anchors_off] == []


def test_every_reference_cites_the_stored_row_with_that_id(compaction: Compaction) -> None:
    evidence = Evidence(compaction.stored, hermes_compaction_redaction)
    for done in compaction.passes:
        assert len(references(done.summary)) >= 20
        assert citation_problems(done.summary, evidence) == []


def test_tool_call_pairs_stay_valid(compaction: Compaction) -> None:
    for done in compaction.passes:
        assert tool_pair_problems(done.compressed) == []


def test_the_output_is_smaller_than_the_input(compaction: Compaction) -> None:
    for done in compaction.passes:
        assert len(done.compressed) < len(done.history)
        assert len(json.dumps(done.compressed)) < len(json.dumps(done.history))
        after = estimate_messages_tokens_rough(done.compressed)
        assert after < estimate_messages_tokens_rough(done.history)


@pytest.mark.skipif(
    not RELEASE.refuse_to_grow,
    reason=f"{RELEASE.name} has no refuse-to-grow path "
    "(no agent.context_compressor.salvage_grown_transcript)",
)
def test_hermes_never_refuses_a_compaction_for_growing(compaction: Compaction) -> None:
    for done in compaction.passes:
        assert done.salvage is not None and done.salvage.calls == []
        assert not done.refused_would_grow


def test_nothing_hermes_would_redact_reaches_the_summary(compaction: Compaction) -> None:
    for done in compaction.passes:
        assert hermes_compaction_redaction(done.summary) == done.summary
    if compaction.secrets:
        summary = compaction.passes[-1].summary
        assert CREDENTIALS_TARGET in summary, "the summary must quote the credentials"
        redacted = hermes_compaction_redaction(CREDENTIALS)
        masked = [secret for secret in SECRETS if secret not in redacted]
        assert masked, "Hermes masks at least one of the credentials"
        assert [s for s in masked if s in summary] == []


@pytest.mark.parametrize("compaction", ["auto-pruned"], indirect=True)
def test_pruning_stubs_reach_the_projection(compaction: Compaction) -> None:
    done = compaction.passes[0]
    stored = {m["_row_id"]: m for m in done.history}
    sent = [m for m in done.requests[0]["messages"] if m.get("role") == "tool"]
    stubs = [m for m in sent if isinstance(m.get("content"), str) and STUB.match(m["content"])]
    pruned_by_hermes = [m for m in stubs if m["content"] != stored[m["_row_id"]]["content"]]
    assert len(stubs) > len(pruned_by_hermes) > 0, "stubs from the window and from Hermes"


@pytest.mark.parametrize("compaction", ["merge"], indirect=True)
def test_a_second_compaction_merges_the_first_summary(compaction: Compaction) -> None:
    first, second = compaction.passes
    assert not first.requests[0]["previous"], "the first pass has nothing to merge"
    previous = second.requests[0]["previous"] or ""
    assert HEADING_OF["files"] in previous, "Hermes read the first summary back for the engine"
    # Paths whole: each summary may name a different root.
    files_before = sections(projection_text(first.summary))[HEADING_OF["files"]]
    files_after = sections(projection_text(second.summary))[HEADING_OF["files"]]
    assert not any(line.startswith("(") for line in files_after), "no file was capped away"
    paths_after = {line.split(" — ")[0] for line in files_after}
    assert {line.split(" — ")[0] for line in files_before} <= paths_after
    active = {m["_row_id"] for m in second.history}
    carried = references(second.summary) - active
    assert carried, "the merged summary still cites rows the first pass compacted"
    copied = originals_of_copies(compaction, active)
    assert copied, "Hermes stored the first pass's tail again as the second pass's window"
    assert carried <= references(first.summary) | copied, "only earlier citations and originals"
    assert references(second.summary) & copied, "a copied row is cited as its original"


def originals_of_copies(compaction: Compaction, ids: set[int]) -> set[int]:
    """The earlier rows that rows ``ids`` copy: same role, time and call id or text."""
    rows = compaction.store.get_messages(compaction.session_id, include_inactive=True)

    def identity(row: dict[str, object]) -> tuple[object, ...]:
        said = row["tool_call_id"] if row["role"] == "tool" else row["content"]
        calls = [call["id"] for call in row.get("tool_calls") or []]
        return (row["role"], row["timestamp"], said, tuple(calls))

    copies = {identity(row): row["id"] for row in rows if row["id"] in ids}
    return {
        row["id"]
        for row in rows
        if row["id"] not in ids and copies.get(identity(row), 0) > row["id"]
    }


@pytest.mark.parametrize("compaction", ["manual-focus"], indirect=True)
def test_a_manual_focus_keeps_matching_lines_first(compaction: Compaction) -> None:
    topic = compaction.focus_topic
    assert topic is not None and compaction.unfocused_body is not None
    done = compaction.passes[0]
    assert done.requests[0]["focus"] == topic

    def matching(summary: str) -> list[str]:
        return [line for line in sections(summary)[SESSION_LOG] if topic.lower() in line.lower()]

    unfocused_log = sections(compaction.unfocused_body)[SESSION_LOG]
    assert any("older log entries omitted" in line for line in unfocused_log), "a full budget"
    assert len(matching(done.summary)) > len(matching(compaction.unfocused_body))
