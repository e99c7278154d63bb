"""A story's turns through Hermes's gateway: ``hermes gateway run`` with its OpenAI-compatible API
server platform on 127.0.0.1, one persisted session created with ``POST /api/sessions``, each turn
sent to ``POST /api/sessions/{id}/chat``. The API server needs ``aiohttp`` in Hermes's
environment, which ``ensure_aiohttp`` installs from the package registry when it is missing.
Every request and wait is bounded; the gateway is stopped at the end."""

from __future__ import annotations

import contextlib
import json
import secrets
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from live_run import hermes_entry_point
from story import Turn
from turn_run import TurnRun

GATEWAY = "gateway"
"""How a turn sent to the gateway's API server is named in a run."""
START_SECONDS = 60
STOP_SECONDS = 20


def ensure_aiohttp() -> str | None:
    """``None`` when this Python can import ``aiohttp`` (installing it if needed), else why not."""
    check = [sys.executable, "-c", "import aiohttp"]
    if subprocess.run(check, capture_output=True, check=False).returncode == 0:
        return None
    install = [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    done = subprocess.run(
        [*install, "aiohttp"], capture_output=True, text=True, timeout=300, check=False
    )
    if done.returncode != 0:
        return f"aiohttp is missing and could not be installed: {done.stderr[-500:]}"
    return None


def gateway_config(yolo: bool) -> str:
    """Config for the gateway: approvals off where the story runs with ``--yolo`` (the gateway has
    no such flag). Its terminal runs in the project: the sandbox's ``cwd``."""
    return "approvals:\n  mode: 'off'\n" if yolo else ""


def _startup_marker(home: Path) -> Path:
    """Installs a hook in ``home`` that writes the returned file on ``gateway:startup``.

    The API server answers before the gateway has started its other services. On 0.22 one of them
    (the Group Chat worker) imports Hermes's tools on a thread; on Python 3.11, a first request
    that imports them at the same time breaks both (`SystemError: AST constructor recursion depth
    mismatch`, then an HTTP 500). Hermes fires ``gateway:startup`` once those services started.
    """
    marker = home / "gateway-started"
    hook = home / "hooks" / "vcc-test-started"
    hook.mkdir(parents=True, exist_ok=True)
    (hook / "HOOK.yaml").write_text(
        "name: vcc-test-started\ndescription: Marks the gateway started.\nevents:\n"
        "  - gateway:startup\n",
        encoding="utf-8",
    )
    (hook / "handler.py").write_text(
        "from pathlib import Path\n\n\ndef handle(event_type, context):\n"
        f"    Path({str(marker)!r}).write_text(event_type)\n",
        encoding="utf-8",
    )
    return marker


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Gateway:
    """A running ``hermes gateway run`` with its API server on 127.0.0.1."""

    def __init__(self, env: dict[str, str], workdir: Path, log: Path) -> None:
        self.port = _free_port()
        self._key = secrets.token_hex(16)
        gateway_env = {
            **env,
            "API_SERVER_ENABLED": "true",
            "API_SERVER_KEY": self._key,
            "API_SERVER_HOST": "127.0.0.1",
            "API_SERVER_PORT": str(self.port),
            # 0.22 warms its turn machinery on a thread while the API server already answers; on
            # Python 3.11 that import racing the first request's breaks both (`SystemError: AST
            # constructor recursion depth mismatch`, then an HTTP 500). Unset, the first turn
            # initialises it alone; releases without a warm-up ignore the variable.
            "HERMES_STARTUP_WARMUP_TIMEOUT": "0",
        }
        self._started = _startup_marker(Path(env["HERMES_HOME"]))
        self._log = log.open("w", encoding="utf-8")
        self._process = subprocess.Popen(
            [str(hermes_entry_point()), "gateway", "run"],
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            cwd=workdir,
            env=gateway_env,
        )

    def wait_ready(self) -> bool:
        """Whether the API server answers and the gateway has finished starting its services."""
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline and self._process.poll() is None:
            with contextlib.suppress(OSError, ValueError):
                if self._started.exists() and self._call("GET", "/health", None, 2).get("status"):
                    return True
            time.sleep(0.5)
        return False

    def _call(self, method: str, path: str, body: Any, timeout: float) -> dict[str, Any]:
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}",
            data=None if body is None else json.dumps(body).encode(),
            method=method,
            headers={"Authorization": f"Bearer {self._key}", "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return json.loads(answer.read() or b"{}")

    def create_session(self) -> str:
        created = self._call("POST", "/api/sessions", {}, 30)
        session = created.get("session") if isinstance(created.get("session"), dict) else created
        return str(session.get("id") or session.get("session_id"))

    def chat(self, session: str, turn: Turn, timeout: float) -> TurnRun:
        started = time.monotonic()
        try:
            answer = self._call(
                "POST", f"/api/sessions/{session}/chat", {"message": turn.request}, timeout
            )
        except (OSError, urllib.error.HTTPError, ValueError) as error:
            return TurnRun(GATEWAY, None, "", str(error), time.monotonic() - started)
        return TurnRun(GATEWAY, 0, json.dumps(answer), "", time.monotonic() - started)

    def stop(self) -> None:
        self._process.terminate()
        try:
            self._process.wait(STOP_SECONDS)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        self._log.close()
