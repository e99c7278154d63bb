"""One generated story through a real Hermes with vcc: its first turn as ``hermes chat -q``, each
later one as ``hermes chat --resume SID -q`` (a new process on the same session), an interactive
turn in a pseudo-terminal (``interactive_turn.py``); all against one scripted model server.

A story with refused calls runs without ``--yolo`` (every turn: a resumed session keeps the flag
it started with) under ``approvals.mode: manual`` with a one-second approval timeout and a deny
rule. Everything the story left (the store, the captured windows, Hermes's log, the files Hermes
saved large outputs to) is kept in ``STORY_RUNS/<release>/<seed>/``.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from catalogue import DENIED_PREFIX, SKILL
from gateway_turns import GATEWAY, Gateway, gateway_config
from interactive_turn import run_interactive_turn
from live_run import (
    REPO,
    Projection,
    _count_projections,
    _projections,
    _sandbox_env,
    _text,
    hermes_entry_point,
    keep_run,
    read_rows,
    release_label,
)
from model_server import ScriptedModel
from story import INTERACTIVE, Story, Turn
from story_player import StoryPlayer
from story_project import write_story_project
from turn_run import TurnRun

CLI = "cli"
"""A story played with ``hermes chat`` (and its interactive loop)."""
STORY_RUNS = REPO / ".cache" / "live-stories"
"""Where each story's run is kept (git-ignored), by release and seed."""
TURN_TIMEOUT_SECONDS = 90
STORY_DEADLINE_SECONDS = 240
"""The model stops answering after this long (a story takes well under two minutes)."""
MODEL_MAX_REQUESTS = 600
INTERACTIVE_SETTINGS = (
    "telemetry:\n"
    "  shared_metrics:\n"
    "    enabled: false\n"
    "    send: false\n"
    "    offer_version: 2\n"
    "display:\n"
    "  cli_multiline_shortcuts: false\n"
)
"""For 0.22's interactive loop: the answer to the shared-metrics question it asks at its first
start, and Enter submitting where the terminal delivers it as a line feed."""
APPROVALS = f'approvals:\n  mode: manual\n  timeout: 1\n  deny:\n    - "{DENIED_PREFIX}*"\n'
_SESSION_LINE = re.compile(r"session_id:\s*(\S+)")
_SAVED_TO = re.compile(r"Full output saved to: (\S+)")
_SKILL_TEXT = (
    "---\nname: {name}\ndescription: Audit the ledgers before reporting totals.\n---\n\n"
    "# Ledger audit\n\n1. Print each ledger.\n2. Compare the totals with the report.\n"
)


@dataclass(repr=False)
class StoryRun:
    """What one story left behind."""

    label: str
    story: Story
    via: str
    player: StoryPlayer
    model: ScriptedModel
    session_id: str | None
    turns: list[TurnRun]
    projections: list[Projection]
    log: str
    kept: Path
    seconds: float
    rows: dict[int, dict] = field(default_factory=dict)

    def __repr__(self) -> str:
        return (
            f"StoryRun({self.label}, seed {self.story.seed}, via {self.via}, kept in {self.kept})"
        )

    @property
    def played(self) -> list[Turn]:
        """The turns this way of playing the story plays (the gateway has no interactive loop)."""
        return [t for t in self.story.turns if self.via == CLI or t.mode != INTERACTIVE]

    @property
    def store(self) -> Path:
        return self.kept / "state.db"

    @property
    def spill(self) -> Path:
        """The files Hermes saved large outputs to, by their names."""
        return self.kept / "spill"


def run_story(story: Story, via: str = CLI) -> StoryRun:
    """Plays ``story`` through Hermes (``via`` its CLI, or its gateway's API server: then the
    interactive turn is left out) and keeps what it left."""
    label = release_label()
    kept = STORY_RUNS / label / (str(story.seed) if via == CLI else f"{story.seed}-{via}")
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="vcc-story-") as scratch:
        root = Path(scratch)
        home, workdir, capture = root / "hermes-home", root / "project", root / "rpc"
        for directory in (home, workdir, capture):
            directory.mkdir()
        write_story_project(workdir)
        skill = home / "skills" / SKILL / "SKILL.md"
        skill.parent.mkdir(parents=True)
        skill.write_text(_SKILL_TEXT.format(name=SKILL), encoding="utf-8")
        player = StoryPlayer(story, compactions=lambda: _count_projections(capture))
        model = ScriptedModel(
            player, max_requests=MODEL_MAX_REQUESTS, deadline_seconds=STORY_DEADLINE_SECONDS
        )
        turns: list[TurnRun] = []
        session: str | None = None
        try:
            config = INTERACTIVE_SETTINGS + ("" if story.yolo else APPROVALS)
            if via == GATEWAY:
                config += gateway_config(story.yolo)
            cwd = workdir if via == GATEWAY else None
            env = _sandbox_env(home, model.start(), capture, config, cwd)
            if via == GATEWAY:
                session = _gateway_turns(story, env, workdir, player, turns, root / "gateway.log")
            else:
                session = _cli_turns(story, env, workdir, player, turns, capture)
        finally:
            model.close()
        store = keep_run(home, capture, kept)
        log = (kept / "agent.log").read_text(encoding="utf-8")
        if (root / "gateway.log").exists():
            shutil.copy(root / "gateway.log", kept / "gateway.log")
        _keep_spilled(store, kept / "spill")
    return StoryRun(
        label=label,
        story=story,
        via=via,
        player=player,
        model=model,
        session_id=session,
        turns=turns,
        projections=_projections(kept / "rpc"),
        log=log,
        kept=kept,
        seconds=time.monotonic() - started,
        rows=read_rows(store),
    )


def _cli_turns(
    story: Story,
    env: dict[str, str],
    workdir: Path,
    player: StoryPlayer,
    turns: list[TurnRun],
    capture: Path,
) -> str | None:
    """Plays the turns with ``hermes chat``; the session id."""
    session: str | None = None
    for number, turn in enumerate(story.turns):
        player.start_turn(number)
        if turn.mode == INTERACTIVE:
            if session is None:
                break
            ran = run_interactive_turn(
                story, turn, session, env, workdir, player, capture, TURN_TIMEOUT_SECONDS
            )
        else:
            ran = _resumed_turn(story, turn.request, session, env, workdir)
        turns.append(ran)
        session = session or _session_of(ran)
        if ran.exit_code != 0:
            break
    return session


# CPython 3.11's parser fails when two threads parse at once (Hermes's gateway imports its tools on
# a boot thread and a request thread); nothing of vcc's or the story's.
AST_RACE = "AST constructor recursion depth mismatch"


def _gateway_turns(
    story: Story,
    env: dict[str, str],
    workdir: Path,
    player: StoryPlayer,
    turns: list[TurnRun],
    log: Path,
) -> str | None:
    """Plays the turns that are not interactive through the gateway; the session id. A gateway
    whose first turn failed on CPython 3.11's `ast.parse` race before the model saw a request is
    started again once (its log kept beside)."""
    for attempt in range(2):
        gateway = Gateway(env, workdir, log)
        try:
            if not gateway.wait_ready():
                turns.append(
                    TurnRun(GATEWAY, None, "", "the gateway's API server never answered", 0)
                )
                return None
            session = gateway.create_session()
            for number, turn in enumerate(story.turns):
                if turn.mode == INTERACTIVE:
                    continue
                player.start_turn(number)
                ran = gateway.chat(session, turn, TURN_TIMEOUT_SECONDS)
                turns.append(ran)
                if ran.exit_code != 0:
                    break
        finally:
            gateway.stop()
        raced = (
            attempt == 0
            and len(turns) == 1
            and turns[0].exit_code is None
            and not player.requests
            and AST_RACE in log.read_text(encoding="utf-8", errors="replace")
        )
        if not raced:
            return session
        log.rename(log.with_name(f"{log.stem}-raced{log.suffix}"))
        turns.clear()
    return None


def _resumed_turn(
    story: Story, request: str, session: str | None, env: dict[str, str], workdir: Path
) -> TurnRun:
    command = [str(hermes_entry_point()), "chat", "-Q"]
    command += ["--yolo"] if story.yolo else []
    command += ["--resume", session] if session else []
    started = time.monotonic()
    try:
        done = subprocess.run(
            [*command, "-q", request],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=TURN_TIMEOUT_SECONDS,
            cwd=workdir,
            env=env,
            check=False,
        )
    except subprocess.TimeoutExpired as timeout:
        return TurnRun(
            "resumed", None, _text(timeout.stdout), _text(timeout.stderr), TURN_TIMEOUT_SECONDS
        )
    return TurnRun("resumed", done.returncode, done.stdout, done.stderr, time.monotonic() - started)


def _session_of(turn: TurnRun) -> str | None:
    """The session id the first turn printed."""
    found = _SESSION_LINE.search(turn.stderr) or _SESSION_LINE.search(turn.stdout)
    return found[1] if found else None


def _keep_spilled(store: Path, destination: Path) -> None:
    """Copies every file a stored result says its full output was saved to."""
    destination.mkdir()
    for row in read_rows(store).values():
        for path in _SAVED_TO.findall(str(row.get("content") or "")):
            source = Path(path)
            if source.is_file():
                shutil.copy(source, destination / source.name)
