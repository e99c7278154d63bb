"""Generated stories (``generator.py``) played through a live Hermes with vcc, each checked after
every compaction against its session store (``story_facts.py``).

``LIVE_SEEDS=a,b,c`` plays other seeds than ``DEFAULT_SEEDS``; each is played with ``hermes chat``
and the first one also through the gateway's API server. The first tests of a run establish that
the story happened as generated (read from the store, not from vcc); each later test checks one
kind of statement on every projection and lists every wrong one.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from gateway_turns import GATEWAY, ensure_aiohttp
from generator import DEFAULT_SEEDS, describe, generate
from record import Record
from story import REFUSED
from story_facts import KINDS, facts_after, under_context
from story_report import CARDS, scorecard, text, write
from story_run import CLI, StoryRun, run_story


def seeds() -> list[int]:
    given = os.environ.get("LIVE_SEEDS", "")
    return [int(s) for s in given.split(",") if s.strip()] or list(DEFAULT_SEEDS)


def plays() -> list[tuple[int, str]]:
    """Each seed through the CLI, and the first one through the gateway."""
    chosen = seeds()
    return [(seed, CLI) for seed in chosen] + [(chosen[0], GATEWAY)]


@pytest.fixture(scope="module", params=plays(), ids=lambda play: f"seed{play[0]}-{play[1]}")
def story(request: pytest.FixtureRequest) -> Iterator[tuple[StoryRun, Record]]:
    """A story, played once per seed and way."""
    seed, via = request.param
    if via == GATEWAY and (missing := ensure_aiohttp()) is not None:
        pytest.skip(f"the gateway's API server cannot run here: {missing}")
    run = run_story(generate(seed), via)
    record = Record(run.rows, run.session_id or "", run.spill)
    card = scorecard(run, record)
    write(card, run)
    CARDS.append(describe(run.story) + "\n" + text(card))
    yield run, record


def test_the_story_happened_as_generated(story: tuple[StoryRun, Record]) -> None:
    run, record = story
    assert [t.exit_code for t in run.turns] == [0] * len(run.played), run.turns[-1:]
    assert run.model.errors == [] and run.player.problems == []
    wrong = []
    for index, step in enumerate(run.story.steps()):
        call = record.calls.get(f"call_{index:03d}")
        if call is None or call.result is None:
            continue
        got = (call.result.kind, call.result.exit_code)
        refused = step.approval and not run.story.yolo and got[0] == REFUSED
        meant = got[0] == step.expect and step.exit_code in (None, got[1])
        if not (meant or refused):
            wrong.append(f"{call.call_id} {step.arguments}: meant {step.expect}, stored {got}")
    assert wrong == []


def test_hermes_compacted_through_vcc_every_time(story: tuple[StoryRun, Record]) -> None:
    run, _ = story
    assert len(run.projections) >= len(run.turns)
    assert [p.response for p in run.projections if p.body is None] == []
    assert run.log.count("vcc: projected") == len(run.projections)


def test_requests_stay_under_the_context_window(story: tuple[StoryRun, Record]) -> None:
    fact = under_context(story[0])
    assert fact.holds, fact.statement


@pytest.mark.parametrize("kind", KINDS)
def test_every_projection_states(story: tuple[StoryRun, Record], kind: str) -> None:
    run, record = story
    assert run.projections, "Hermes never compacted"
    wrong = [
        f"compaction {index}: {fact.statement} — {fact.problem}"
        for index in range(1, len(run.projections) + 1)
        for fact in facts_after(run, record, index)
        if fact.kind == kind and not fact.holds
    ]
    assert wrong == []
