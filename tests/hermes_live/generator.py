"""Composes a story from the catalogue, the same story for the same seed: the tally fix first,
then a seeded draw of episodes spread over resumed turns (those printing facts to keep in the
first two), large outputs between some of them, and a last turn in the interactive loop that ends
with a focused ``/compress``."""

from __future__ import annotations

import random

from catalogue import CATALOGUE, CHILD_MARKER, FIX_TALLY_BUG, Episode, filler
from story import INTERACTIVE, Step, Story, Turn

DEFAULT_SEEDS = (1, 6, 7)
"""Seeds whose stories together hold every catalogue episode, one of them under ``--yolo``."""
RESUMED_TURNS = 3
EPISODES_LEFT_OUT = 4
"""How many catalogue episodes a story leaves out (the default seeds together hold them all)."""
FILLERS_PER_TURN = 16
"""Large outputs a turn may end with (it uses them until it has its compactions)."""
FOCUS = "invoice"
"""The topic of the closing ``/compress``; the invoice episode's lines match it."""
CHILD_REPORT = "Child report: tally/stats.py has {lines} lines."


def generate(seed: int) -> Story:
    """The story of ``seed``."""
    rng = random.Random(seed)
    drawn = rng.sample(CATALOGUE, len(CATALOGUE) - EPISODES_LEFT_OUT)
    focused = next((e for e in drawn if e.name == "invoice work"), None)
    if focused is None:
        focused = next(e for e in CATALOGUE if e.name == "invoice work")
    else:
        drawn.remove(focused)
    groups: list[list[Episode]] = [[FIX_TALLY_BUG]] + [[] for _ in range(RESUMED_TURNS - 1)]
    # Episodes with facts to keep go to the first turns, so later compactions take their rows in.
    keeping = [e for e in drawn if e.keeps]
    for index, episode in enumerate(keeping):
        groups[index % (RESUMED_TURNS - 1)].append(episode)
    for index, episode in enumerate(e for e in drawn if not e.keeps):
        groups[(index + 1) % RESUMED_TURNS].append(episode)
    groups[-1].append(focused)
    counter = iter(range(1, 10_000))
    fillers = iter(range(1, 10_000))
    turns = []
    for number, group in enumerate(groups, 1):
        steps: list[Step] = []
        for episode in group:
            steps += episode.build(rng, next(counter))
            if rng.random() < 0.5:
                steps.append(filler(next(fillers)))
        turns.append(
            Turn(
                request=_request(number, group),
                steps=tuple(steps),
                fillers=tuple(filler(next(fillers)) for _ in range(FILLERS_PER_TURN)),
                compactions=1,
            )
        )
    closing = [focused.build(rng, next(counter))[1], filler(next(fillers))]
    turns.append(
        Turn(
            request=f"Before you compress: rerun the {FOCUS} tests once more.",
            steps=tuple(closing),
            fillers=(),
            compactions=0,
            mode=INTERACTIVE,
            focus=FOCUS,
        )
    )
    refuses = any(e.refuses for group in groups for e in group)
    goals = {
        str(task["goal"]): CHILD_REPORT.format(lines=11)
        for step in (s for t in turns for s in t.steps)
        if step.tool == "delegate_task"
        for task in step.arguments["tasks"]
        if str(task["goal"]).startswith(CHILD_MARKER)
    }
    names = tuple(e.name for group in groups for e in group)
    return Story(seed=seed, turns=tuple(turns), yolo=not refuses, episodes=names, child_goals=goals)


def _request(number: int, group: list[Episode]) -> str:
    asks = [e.request for e in group]
    body = asks[0] if len(asks) == 1 else ", ".join(asks[:-1]) + " and " + asks[-1]
    return f"Request {number}: {body[0].upper()}{body[1:]}."


def describe(story: Story) -> str:
    """The story in a few lines, for the test log."""
    lines = [f"story {story.seed} ({'--yolo' if story.yolo else 'approvals on'}):"]
    for number, turn in enumerate(story.turns, 1):
        tools = ", ".join(step.tool for step in turn.steps)
        lines.append(f"  turn {number} ({turn.mode}): {len(turn.steps)} steps: {tools}")
    return "\n".join(lines)
