"""A real Hermes agent loop with vcc, driven by a scripted model (see ``live_run.py``).

Run with the Python of a virtual environment ``.ci/hermes.sh`` built, whose ``hermes`` command is
the one driven (``deno task test`` runs this once per release in ``.cache/hermes/installed.txt``):

    .cache/hermes/0.19.0/bin/python -m pytest tests/hermes_live

The scripted session runs once, before the first test that needs it; every test then checks one
kind of statement on every compaction. The run's store, captured windows and scorecard stay in
``live_run.KEPT_RUNS``. The generated stories (``test_generated_stories.py``; ``LIVE_SEEDS=a,b,c``
chooses their seeds, ``LIVE_FINDINGS_DIR`` where the captures of a story with a wrong fact go) are
kept in ``story_run.STORY_RUNS``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from live_run import LiveRun, hermes_entry_point, run_live_session

_cards: list[dict[str, Any]] = []


def pytest_configure(config: pytest.Config) -> None:
    if not hermes_entry_point().is_file():
        raise pytest.UsageError(
            f"the live Hermes tests need the Python of a Hermes Agent virtual environment; there "
            f"is no {hermes_entry_point()}; run `bash .ci/hermes.sh`, then `deno task test`"
        )


@pytest.fixture(scope="session")
def live() -> Iterator[LiveRun]:
    """The live session, run once."""
    from report import scorecard, write

    run = run_live_session()
    card = scorecard(run, run.rows())
    write(card)
    _cards.append(card)
    yield run


@pytest.fixture(scope="session")
def rows(live: LiveRun) -> dict[int, dict[str, Any]]:
    """The session store's rows, by id."""
    return live.rows()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    from report import text
    from story_report import CARDS

    for card in _cards:
        terminalreporter.write_line(text(card))
    for card in CARDS:
        terminalreporter.write_line(card)
