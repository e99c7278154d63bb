"""Generated stories (``generator.py``) played through a live Hermes with vcc, each checked after
every compaction against its session store (``story_facts.py``).

``LIVE_SEEDS=a,b,c`` plays other seeds than ``DEFAULT_SEEDS``; each is played with ``hermes chat``
and the first one also through the gateway's API server, two plays at a time (``story_plays.py``).
The first tests of a run establish that the story happened as generated (read from the store, not
from vcc); each later test checks one kind of statement on every projection and lists every wrong
one.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from gateway_turns import GATEWAY
from generator import DEFAULT_SEEDS, describe
from record import Record
from story import REFUSED
from story_facts import KINDS, CheckedStory, check_story, under_context
from story_plays import Plays
from story_report import CARDS, scorecard, text, write
from story_run import CLI


def seeds() -> list[int]:
    given = os.environ.get("LIVE_SEEDS", "")
    return [int(s) for s in given.split(",") if s.strip()] or list(DEFAULT_SEEDS)


def plays() -> list[tuple[int, str]]:
    """Each seed through the CLI, and the first one through the gateway."""
    chosen = seeds()
    return [(seed, CLI) for seed in chosen] + [(chosen[0], GATEWAY)]


@pytest.fixture(scope="session")
def played() -> Iterator[Plays]:
    """Every play of the run, started together (``story_plays.AT_ONCE`` at a time)."""
    started = Plays(plays())
    yield started
    started.close()


@pytest.fixture(scope="module", params=plays(), ids=lambda play: f"seed{play[0]}-{play[1]}")
def story(request: pytest.FixtureRequest, played: Plays) -> CheckedStory:
    """A story, played once per seed and way, and checked."""
    if (why := played.skipped.get(request.param)) is not None:
        pytest.skip(why)
    run = played.result(request.param)
    checked = check_story(run, Record(run.rows, run.session_id or "", run.spill))
    card = scorecard(checked)
    write(card, run)
    CARDS.append(describe(run.story) + "\n" + text(card))
    return checked


def test_the_story_happened_as_generated(story: CheckedStory) -> None:
    run, record = story.run, story.record
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


def test_hermes_compacted_through_vcc_every_time(story: CheckedStory) -> None:
    run = story.run
    assert len(run.projections) >= len(run.turns)
    assert [p.response for p in run.projections if p.body is None] == []
    assert run.log.count("vcc: projected") == len(run.projections)


def test_requests_stay_under_the_context_window(story: CheckedStory) -> None:
    fact = under_context(story.run)
    assert fact.holds, fact.statement


@pytest.mark.parametrize("kind", KINDS)
def test_every_projection_states(story: CheckedStory, kind: str) -> None:
    assert story.run.projections, "Hermes never compacted"
    wrong = [
        f"compaction {index}: {fact.statement} — {fact.problem}"
        for index, facts in enumerate(story.facts, 1)
        for fact in facts
        if fact.kind == kind and not fact.holds
    ]
    assert wrong == []
