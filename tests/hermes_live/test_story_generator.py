"""The story generator on its own: a seed always gives the same story, and the default seeds
together play every catalogue episode, under ``--yolo`` and with approvals on."""

from __future__ import annotations

from catalogue import CATALOGUE, FIX_TALLY_BUG
from generator import DEFAULT_SEEDS, generate


def test_a_seed_gives_the_same_story_every_time() -> None:
    assert generate(6) == generate(6)
    assert generate(6) != generate(7)


def test_the_default_seeds_play_every_episode_with_and_without_yolo() -> None:
    stories = [generate(seed) for seed in DEFAULT_SEEDS]
    played = {name for story in stories for name in story.episodes}
    assert played == {e.name for e in (FIX_TALLY_BUG, *CATALOGUE)}
    assert {story.yolo for story in stories} == {True, False}


def test_stories_open_with_the_tally_fix_and_end_turns_with_large_outputs() -> None:
    for seed in DEFAULT_SEEDS:
        story = generate(seed)
        assert story.episodes[0] == FIX_TALLY_BUG.name
        for turn in story.turns:
            assert all(f.tool in ("terminal", "read_file") for f in turn.fillers)
        assert len({t.request for t in story.turns}) == len(story.turns)
