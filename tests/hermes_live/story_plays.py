"""The story plays of one test run, two at a time: a play spends most of its time waiting on
Hermes starting up and on its tools, so two share CI's two cores and the suite takes about half
as long. Each play keeps its own model server, sandbox and pseudo-terminal; every wait for one
is bounded."""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor

from gateway_turns import GATEWAY, ensure_aiohttp
from generator import generate
from story_run import StoryRun, run_story

AT_ONCE = 2
"""How many stories play at the same time."""
WAIT_SECONDS = 900
"""The longest a test waits for one play: a play's turns are bounded (``TURN_TIMEOUT_SECONDS``
each, four turns), and it may first wait for a worker."""

Play = tuple[int, str]
"""A seed and the way it is played (``story_run.CLI`` or ``gateway_turns.GATEWAY``)."""


class Plays:
    """Every play of the run, started at once in the order given, ``AT_ONCE`` at a time."""

    def __init__(self, plays: Sequence[Play]) -> None:
        self.skipped: dict[Play, str] = {}
        """Plays that cannot run here, with the reason."""
        if any(via == GATEWAY for _, via in plays) and (missing := ensure_aiohttp()):
            why = f"the gateway's API server cannot run here: {missing}"
            self.skipped = {play: why for play in plays if play[1] == GATEWAY}
        self._pool = ThreadPoolExecutor(max_workers=AT_ONCE, thread_name_prefix="story")
        self._futures: dict[Play, Future[StoryRun]] = {
            play: self._pool.submit(run_story, generate(play[0]), play[1])
            for play in plays
            if play not in self.skipped
        }

    def result(self, play: Play) -> StoryRun:
        """The play's run, once it has ended."""
        return self._futures[play].result(timeout=WAIT_SECONDS)

    def close(self) -> None:
        """Drops the plays not yet started and waits for the running ones (each is bounded)."""
        self._pool.shutdown(wait=True, cancel_futures=True)
