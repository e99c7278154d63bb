"""A live Hermes session with vcc (``live_run.py``), checked after every compaction.

The first tests establish that the session happened as scripted (the ground truth the others rely
on, read from the session store, not from vcc); each later test checks one kind of statement
(``facts.KINDS``) on every projection and lists every wrong one.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from facts import (
    BLOCKED,
    ERROR_NAMES,
    FILES,
    NO_SUMMARY_REQUEST,
    ORIGINALS,
    OUTCOMES,
    REFERENCES,
    facts_after,
    lookup_check,
)
from live_run import LiveRun
from session_script import ASSERTION_TEXT, COMPACTIONS, FINAL_ANSWER, FIX_STEPS


def original_result(rows: dict[int, dict[str, Any]], call_id: str) -> dict[str, Any]:
    """The first stored result of a call (Hermes stores kept results again after compacting)."""
    found = [row for _, row in sorted(rows.items()) if row.get("tool_call_id") == call_id]
    assert found, f"no stored result for {call_id}"
    return found[0]


def test_hermes_ran_the_scripted_session(live: LiveRun, rows: dict[int, dict[str, Any]]) -> None:
    assert live.exit_code == 0, f"hermes chat exited {live.exit_code}: {live.stderr[-2000:]}"
    assert live.model.errors == []
    assert FINAL_ANSWER in live.stdout
    assert len(live.session.actions) > FIX_STEPS
    for action in live.session.commands():
        stored = json.loads(original_result(rows, action.call_id)["content"])
        assert stored["exit_code"] == (1 if action.outcome == "failed" else 0), action.command
        if action.error_name:
            assert action.error_name in stored["output"], action.command
    first_pytest = live.session.actions[0]
    assert ASSERTION_TEXT in original_result(rows, first_pytest.call_id)["content"]


def test_hermes_compacted_through_vcc_every_time(live: LiveRun) -> None:
    assert len(live.projections) >= COMPACTIONS
    failed = [p.response for p in live.projections if p.body is None]
    assert failed == []
    projected = live.log.count("vcc: projected")
    assert projected == len(live.projections), "each window was projected once, no LLM call"


def problems_of(live: LiveRun, rows: dict[int, dict[str, Any]], kind: str) -> list[str]:
    """Every statement of ``kind`` some projection gets wrong, named by compaction."""
    assert live.projections, "Hermes never compacted"
    return [
        f"compaction {index}: {fact.statement} — {fact.problem}"
        for index in range(1, len(live.projections) + 1)
        for fact in facts_after(live, index, rows)
        if fact.kind == kind and not fact.holds
    ]


@pytest.mark.parametrize(
    "kind", [NO_SUMMARY_REQUEST, OUTCOMES, BLOCKED, ERROR_NAMES, FILES, REFERENCES, ORIGINALS]
)
def test_every_projection_states(live: LiveRun, rows: dict[int, dict[str, Any]], kind: str) -> None:
    assert problems_of(live, rows, kind) == []


def test_session_search_on_the_cited_failure_shows_its_output(
    live: LiveRun, rows: dict[int, dict[str, Any]]
) -> None:
    check = lookup_check(live, rows)
    assert check.holds, check.detail
