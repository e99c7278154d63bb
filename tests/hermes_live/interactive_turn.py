"""A turn typed into Hermes's interactive loop (``hermes chat --resume SID``) in a pseudo-terminal:
the request, then, once the model has answered it, ``/compress FOCUS``, then ``/exit``. Each wait
is bounded; the process is ended if it does not exit by itself."""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import termios
import time
from collections.abc import Callable
from pathlib import Path

from live_run import _count_projections, hermes_entry_point
from story import Story, Turn
from story_player import StoryPlayer
from turn_run import TurnRun

PROMPT = "\u276f"
"""The input prompt Hermes's interactive loop draws."""
_ESCAPE = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]")
_QUIET_SECONDS = 1.0
_KEY_PAUSE_SECONDS = 0.5
_RETRY_SECONDS = 5.0
NOTHING = "Nothing to compress"
"""What ``/compress`` says when the session has no window to compact."""
_COLUMNS, _ROWS = 120, 40


def run_interactive_turn(
    story: Story,
    turn: Turn,
    session: str,
    env: dict[str, str],
    workdir: Path,
    player: StoryPlayer,
    capture: Path,
    timeout: float,
) -> TurnRun:
    """Plays ``turn`` in the interactive loop of session ``session``."""
    command = [str(hermes_entry_point()), "chat", *(["--yolo"] if story.yolo else [])]
    command += ["--resume", session]
    started = time.monotonic()
    deadline = started + timeout
    # Not pty.fork: forking this multi-threaded process (the model server) may deadlock the child.
    fd, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", _ROWS, _COLUMNS, 0, 0))
    hermes = subprocess.Popen(
        command,
        stdin=terminal,
        stdout=terminal,
        stderr=terminal,
        cwd=workdir,
        env={**env, "TERM": "xterm-256color"},
        start_new_session=True,
    )
    os.close(terminal)
    screen = _Screen(fd)
    number = player.story.turns.index(turn)
    stalled = None
    try:
        asked = len(player.requests)
        if not screen.wait(lambda: PROMPT in screen.text and screen.quiet(), deadline):
            stalled = "the input prompt"
        elif not screen.submit(turn.request, lambda: len(player.requests) > asked, deadline):
            stalled = "the model to receive the request"
        elif not screen.wait(lambda: number in player.finished and screen.quiet(), deadline):
            stalled = "the model's answer"
        else:
            before, shown = _count_projections(capture), len(screen.text)

            def compacted() -> bool:
                return _count_projections(capture) > before or NOTHING in screen.text[shown:]

            if not screen.submit(f"/compress {turn.focus}", compacted, deadline):
                stalled = "/compress"
            else:
                screen.wait(screen.quiet, deadline)
                screen.submit("/exit", lambda: screen.closed, min(deadline, time.monotonic() + 10))
        # A stalled turn is ended at once; otherwise Hermes gets a while to exit after /exit.
        exit_by = time.monotonic() if stalled else min(deadline, time.monotonic() + 30)
        exit_code = _wait_for_exit(hermes, screen, exit_by)
    finally:
        if hermes.poll() is None:  # only after an error: every path above waits for its exit
            hermes.kill()
            hermes.wait()
        with contextlib.suppress(OSError):
            os.close(fd)
    why = f"stalled waiting for {stalled}" if stalled else ""
    return TurnRun("interactive", exit_code, screen.text, why, time.monotonic() - started)


class _Screen:
    """What the pseudo-terminal has shown so far, escape sequences removed."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._raw = b""
        self._last = time.monotonic()
        self.closed = False

    @property
    def text(self) -> str:
        return _ESCAPE.sub("", self._raw.decode("utf-8", "replace"))

    def quiet(self) -> bool:
        return time.monotonic() - self._last >= _QUIET_SECONDS

    def _write(self, data: bytes) -> None:
        with contextlib.suppress(OSError):
            os.write(self._fd, data)

    def read(self, seconds: float) -> None:
        ready, _, _ = select.select([self._fd], [], [], seconds)
        if not ready or self.closed:
            return
        try:
            data = os.read(self._fd, 65536)
        except OSError:
            data = b""
        if not data:
            self.closed = True
            return
        self._raw += data
        self._last = time.monotonic()

    def pause(self, seconds: float) -> None:
        """Reads what arrives for ``seconds``, however much that is."""
        until = time.monotonic() + seconds
        while (left := until - time.monotonic()) > 0 and not self.closed:
            self.read(min(left, 0.2))

    def wait(self, done: Callable[[], bool], deadline: float) -> bool:
        while time.monotonic() < deadline and not self.closed:
            if done():
                return True
            self.read(0.2)
        return done()

    def submit(self, line: str, done: Callable[[], bool], deadline: float) -> bool:
        """Types ``line``, then, after a pause, Enter on its own, and Enter again every few
        seconds until ``done``. 0.22 reads an Enter that comes within 50 ms of the last change
        to its input box as a line break inside a pasted message, not as a submit
        (``_RAPID_INPUT_ENTER_WINDOW_S`` in ``hermes_cli/cli_tui_mixin.py``), and takes typed
        text before its agent is ready and leaves it in the input box."""
        self._write(line.encode())
        self.pause(_KEY_PAUSE_SECONDS)
        while time.monotonic() < deadline and not self.closed:
            self._write(b"\r")
            if self.wait(done, min(deadline, time.monotonic() + _RETRY_SECONDS)):
                return True
        return False


def _wait_for_exit(hermes: subprocess.Popen[bytes], screen: _Screen, deadline: float) -> int | None:
    while time.monotonic() < deadline:
        if hermes.poll() is not None:
            return hermes.returncode
        screen.read(0.2)
    hermes.terminate()
    try:
        hermes.wait(10)
    except subprocess.TimeoutExpired:
        hermes.kill()
        hermes.wait()
    return None
