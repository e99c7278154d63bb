"""One live session: a real Hermes, with vcc installed as a user installs it, driven by the
scripted model on a temporary project, and everything it left behind.

Hermes runs as its own process (``hermes chat -Q --yolo -q PROMPT``, the entry point of the
virtual environment whose Python runs these tests) in a sandboxed ``HERMES_HOME`` where
``vcc hermes install --activate`` put the plugin. ``VCC_BIN`` points the plugin at a wrapper that
runs the command the install recorded through ``vcc_tee.py``, so every window Hermes hands to vcc
and every projection are captured without changing either. The session store and the captured
lines are copied to ``KEPT_RUNS/<release>/`` for ``vcc preview|stats|bench --db`` afterwards.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import json
import os
import shlex
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from model_server import ScriptedModel
from project import write_project
from session_script import PROMPT, ScriptedSession

REPO = Path(__file__).resolve().parents[2]
KEPT_RUNS = REPO / ".cache" / "live"
"""Where each release's run is kept (git-ignored): ``<release>/state.db``, the captured
JSON-RPC lines under ``<release>/rpc/`` and Hermes's ``agent.log``."""
MODEL = "scripted-model"
CONTEXT_LENGTH = 64_000
"""The smallest context length Hermes accepts; compaction starts at its default share of it."""
HERMES_TIMEOUT_SECONDS = 110
"""The longest the session may take (it takes 10-20 s)."""
MODEL_MAX_REQUESTS = 200
TEE = Path(__file__).with_name("vcc_tee.py")


def release_label() -> str:
    """The Hermes distribution of this Python, its version and the Python's, as the release's
    virtual environment is named, e.g. ``hermes-agent-0.19.0-py3.11``: one release installed on
    two Pythons keeps two runs."""
    distribution = importlib.metadata.packages_distributions().get("agent", ["unknown"])[0]
    python = f"py{sys.version_info.major}.{sys.version_info.minor}"
    return f"{distribution}-{importlib.metadata.version(distribution)}-{python}"


def hermes_entry_point() -> Path:
    """The ``hermes`` command of the virtual environment running these tests."""
    return Path(sys.executable).parent / "hermes"


@dataclass(frozen=True)
class Projection:
    """One ``project`` call of the plugin to vcc: the window Hermes handed over, and the answer."""

    request: dict[str, Any]
    response: dict[str, Any] | None

    @property
    def turns(self) -> list[dict[str, Any]]:
        return list(self.request.get("params", {}).get("messages") or [])

    @property
    def body(self) -> str | None:
        result = (self.response or {}).get("result")
        return result.get("body") if isinstance(result, dict) else None


@dataclass
class LiveRun:
    """What one live session left: the model's record, the captured projections, Hermes's
    output and log, and the kept session store."""

    label: str
    session: ScriptedSession
    model: ScriptedModel
    projections: list[Projection]
    exit_code: int | None
    stdout: str
    stderr: str
    log: str
    store: Path
    seconds: float

    def rows(self) -> dict[int, dict[str, Any]]:
        """Every stored message of the session store, by row id (read-only)."""
        return read_rows(self.store)


def read_rows(store: Path) -> dict[int, dict[str, Any]]:
    """The ``messages`` table of a Hermes ``state.db``, opened read-only, as message dicts."""
    connection = sqlite3.connect(f"{store.resolve().as_uri()}?mode=ro", uri=True)
    connection.row_factory = sqlite3.Row
    try:
        rows = connection.execute("SELECT * FROM messages ORDER BY id").fetchall()
    finally:
        connection.close()
    out: dict[int, dict[str, Any]] = {}
    for row in rows:
        message = dict(row)
        calls = message.get("tool_calls")
        if isinstance(calls, str) and calls:
            with contextlib.suppress(ValueError):
                message["tool_calls"] = json.loads(calls)
        out[int(message["id"])] = message
    return out


def _write_config(home: Path, base_url: str, extra: str = "", cwd: Path | None = None) -> None:
    """Hermes's ``config.yaml`` for the scripted model, its commands run in ``cwd`` when given,
    with ``extra`` YAML appended.

    Commands run with ``HOME`` set to the home's own ``home/``, whose login profile holds the run's
    ``PATH`` and nothing else, and Hermes sources none of the machine user's profiles before them:
    the user's profile would make runs differ between machines, or stall them (a lock left in
    pyenv's shims by a killed shell makes every later login shell wait a minute for it)."""
    (home / "config.yaml").write_text(
        "model:\n"
        f"  default: {MODEL}\n"
        "  provider: custom\n"
        f"  base_url: {base_url}\n"
        "  api_key: not-a-real-key\n"
        f"  context_length: {CONTEXT_LENGTH}\n"
        "security:\n"
        "  allow_lazy_installs: false\n"
        "memory:\n"
        "  nudge_interval: 0\n"
        "skills:\n"
        "  creation_nudge_interval: 0\n"
        "terminal:\n"
        "  home_mode: profile\n"
        "  auto_source_bashrc: false\n" + (f"  cwd: {cwd}\n" if cwd else "") + extra,
        encoding="utf-8",
    )


def _commands_home(home: Path, env: dict[str, str]) -> None:
    """The home the commands run in (``_write_config``): a login profile that sets the run's
    ``PATH`` and nothing else, and the only git configuration git reads, named in ``env``: an
    identity, which ``git merge`` needs, in place of whatever the machine user configured."""
    commands_home = home / "home"
    commands_home.mkdir(exist_ok=True)
    profile = f"export PATH={shlex.quote(env['PATH'])}\n"
    (commands_home / ".bash_profile").write_text(profile, encoding="utf-8")
    gitconfig = commands_home / ".gitconfig"
    gitconfig.write_text("[user]\n\tname = dev\n\temail = dev@example.invalid\n", encoding="utf-8")
    env.update(GIT_CONFIG_GLOBAL=str(gitconfig), GIT_CONFIG_NOSYSTEM="1")


def _deno() -> str:
    found = shutil.which("deno") or str(REPO / "node_modules" / ".bin" / "deno")
    if not Path(found).exists():
        raise FileNotFoundError("deno is neither on PATH nor in node_modules/.bin")
    return found


def _install_vcc(home: Path, env: dict[str, str]) -> None:
    command = [_deno(), "run", "--quiet", "-A", str(REPO / "main.ts"), "hermes", "install"]
    done = subprocess.run(
        [*command, "--activate", "--hermes-home", str(home)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO,
        env={**env, "NO_COLOR": "1"},
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"vcc hermes install failed ({done.returncode}): {done.stderr}")


def _tee_wrapper(home: Path, capture: Path) -> Path:
    """A ``VCC_BIN`` that runs what the install recorded in ``vcc.json``, through the tee."""
    recorded = json.loads((home / "plugins" / "vcc" / "vcc.json").read_text(encoding="utf-8"))
    tee = shlex.join([sys.executable, str(TEE), str(capture), "--", *recorded["command"]])
    wrapper = capture.parent / "vcc-tee.sh"
    wrapper.write_text(f'#!/bin/sh\nexec {tee} "$@"\n', encoding="utf-8")
    wrapper.chmod(0o755)
    return wrapper


def _wait_for_tees(capture: Path, timeout: float = 10.0) -> None:
    """Waits until every tee (named by its pid in ``capture``) has written its last line."""
    pids = {int(path.name.split(".")[0]) for path in capture.glob("*.jsonl")}
    deadline = time.monotonic() + timeout
    while pids and time.monotonic() < deadline:
        for pid in list(pids):
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                pids.discard(pid)
        time.sleep(0.05)


def _count_projections(capture: Path) -> int:
    """How many ``project`` requests the plugin has sent so far."""
    return sum(
        1
        for requests in capture.glob("*.requests.jsonl")
        for line in _lines(requests)
        if json.loads(line).get("method") == "project"
    )


def _projections(capture: Path) -> list[Projection]:
    """The ``project`` calls in the captured lines, in the order they were sent (a file per
    ``vcc serve``, the files in the order they were last written)."""
    found: list[Projection] = []
    for requests in sorted(capture.glob("*.requests.jsonl"), key=lambda p: p.stat().st_mtime):
        responses = requests.with_name(requests.name.replace("requests", "responses"))
        answers: dict[Any, dict[str, Any]] = {}
        for line in _lines(responses) if responses.exists() else []:
            message = json.loads(line)
            answers[message.get("id")] = message
        for line in _lines(requests):
            message = json.loads(line)
            if message.get("method") == "project":
                found.append(Projection(message, answers.get(message.get("id"))))
    return found


def _lines(path: Path) -> list[str]:
    """The lines of a captured file (JSON may hold U+2028 and the like unescaped, which
    ``splitlines`` would split on)."""
    return [line for line in path.read_text(encoding="utf-8").split("\n") if line]


def keep_run(home: Path, capture: Path, kept: Path) -> Path:
    """Keeps what a run left in ``kept`` once vcc's last answer is written: the captured bridge
    lines, Hermes's log and a copy of the session store, which it returns."""
    _wait_for_tees(capture)
    if kept.exists():
        shutil.rmtree(kept)
    kept.mkdir(parents=True)
    shutil.copytree(capture, kept / "rpc")
    log_file = home / "logs" / "agent.log"
    log = log_file.read_text(encoding="utf-8", errors="replace") if log_file.exists() else ""
    (kept / "agent.log").write_text(log, encoding="utf-8")
    return _keep(home / "state.db", kept / "state.db")


def _keep(store: Path, destination: Path) -> Path:
    """A consistent single-file copy of the session store (its write-ahead log included)."""
    destination.parent.mkdir(parents=True, exist_ok=True)
    destination.unlink(missing_ok=True)
    source = sqlite3.connect(f"{store.resolve().as_uri()}?mode=ro", uri=True)
    target = sqlite3.connect(destination)
    try:
        source.backup(target)
    finally:
        target.close()
        source.close()
    return destination


def _run_hermes(env: dict[str, str], workdir: Path) -> tuple[int | None, str, str]:
    """Runs one ``hermes chat`` turn loop on ``PROMPT``; its exit code (``None``: timed out)."""
    try:
        done = subprocess.run(
            [str(hermes_entry_point()), "chat", "-Q", "--yolo", "-q", PROMPT],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=HERMES_TIMEOUT_SECONDS,
            cwd=workdir,
            env=env,
            check=False,
        )
    except subprocess.TimeoutExpired as timeout:
        return None, _text(timeout.stdout), _text(timeout.stderr)
    return done.returncode, done.stdout, done.stderr


def _sandbox_env(
    home: Path, base_url: str, capture: Path, config: str = "", cwd: Path | None = None
) -> dict[str, str]:
    """Hermes's environment: the sandboxed home, configured for the scripted model (its commands
    run in ``cwd`` when given, plus the YAML in ``config``), with vcc installed and captured; this
    virtual environment's commands first on ``PATH``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HERMES_", "VCC_", "GIT_"))}
    env["HERMES_HOME"] = str(home)
    _write_config(home, base_url, config, cwd)
    _install_vcc(home, env)
    env["VCC_BIN"] = str(_tee_wrapper(home, capture))
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    _commands_home(home, env)
    env.update(NO_COLOR="1", PYTHONDONTWRITEBYTECODE="1")
    return env


def run_live_session() -> LiveRun:
    """Runs the scripted session once through Hermes and keeps what it left."""
    label = release_label()
    kept = KEPT_RUNS / label
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="vcc-live-") as scratch:
        root = Path(scratch)
        home, workdir, capture = root / "hermes-home", root / "project", root / "rpc"
        for directory in (home, workdir, capture):
            directory.mkdir()
        write_project(workdir)
        session = ScriptedSession(compactions=lambda: _count_projections(capture))
        model = ScriptedModel(
            session, max_requests=MODEL_MAX_REQUESTS, deadline_seconds=HERMES_TIMEOUT_SECONDS
        )
        try:
            env = _sandbox_env(home, model.start(), capture)
            exit_code, stdout, stderr = _run_hermes(env, workdir)
        finally:
            model.close()
        store = keep_run(home, capture, kept)
        log = (kept / "agent.log").read_text(encoding="utf-8")
    return LiveRun(
        label=label,
        session=session,
        model=model,
        projections=_projections(kept / "rpc"),
        exit_code=exit_code,
        stdout=stdout,
        stderr=stderr,
        log=log,
        store=store,
        seconds=time.monotonic() - started,
    )


def _text(value: bytes | str | None) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return value or ""
