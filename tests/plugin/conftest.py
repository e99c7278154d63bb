"""Shared setup of the plugin tests.

The plugin is imported as the package ``plugin`` from the repository root. Its engine subclasses
Hermes's ``ContextCompressor``: from the installed Hermes Agent when one is importable, else from
the small stand-in in ``stand_in/``. Tests that assert stand-in behaviour are marked ``stand_in``.
"""

from __future__ import annotations

import importlib.util
import shlex
import shutil
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from plugin.engine import VccEngine

REPO = Path(__file__).resolve().parents[2]
HERMES_INSTALLED = importlib.util.find_spec("agent") is not None and (
    importlib.util.find_spec("agent.context_compressor") is not None
)

sys.path.insert(0, str(REPO))
if not HERMES_INSTALLED:
    sys.path.insert(0, str(Path(__file__).resolve().parent / "stand_in"))

from plugin.binary import DENO_RUN, deno_binary  # noqa: E402 - needs the path set above

DENO = deno_binary(shutil.which("deno") or str(REPO / "node_modules" / ".bin" / "deno"))
SERVE_FROM_SOURCE = (DENO, *DENO_RUN, str(REPO / "main.ts"), "serve")
"""``vcc serve`` run from this checkout's source."""

FAKE_SERVER = Path(__file__).resolve().parent / "fake_server.py"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "stand_in: needs the stand-in ContextCompressor")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if HERMES_INSTALLED:
        skip = pytest.mark.skip(reason="asserts the stand-in's behaviour; Hermes is installed")
        for item in items:
            if "stand_in" in item.keywords:
                item.add_marker(skip)


def make_engine(session_id: str | None = None, **vcc: Any) -> VccEngine:
    """A ``VccEngine`` for a model of 128,000 tokens with ``vcc`` as its ``context.vcc`` settings;
    with ``session_id``, that session started."""
    from plugin.engine import VccEngine

    engine = VccEngine(config={"model": {"context_length": 128_000}, "context": {"vcc": vcc}})
    if session_id is not None:
        engine.on_session_start(session_id)
    return engine


def fake_server(mode: str, *args: str) -> tuple[str, ...]:
    """A command that starts ``fake_server.py`` behaving as ``mode`` with ``args`` says."""
    return (sys.executable, str(FAKE_SERVER), mode, *args)


def shell_script(path: Path, argv: Sequence[str]) -> Path:
    """Writes an executable at ``path`` that runs ``argv`` (ignoring its own arguments)."""
    path.write_text(f"#!/bin/sh\nexec {shlex.join(argv)}\n", encoding="utf-8")
    path.chmod(0o755)
    return path


def started(record: Path) -> int:
    """How many fake servers recorded their start in ``record`` (see the ``starts`` fixture)."""
    return len(record.read_text().splitlines()) if record.exists() else 0


@pytest.fixture
def starts(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """The file every fake server started during the test records its start in."""
    record = tmp_path / "starts"
    monkeypatch.setenv("FAKE_SERVER_STARTS", str(record))
    return record


@pytest.fixture(autouse=True)
def fresh_shared_client(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Each test starts without the process-wide bridge client and stops the one it made."""
    from plugin import bridge

    monkeypatch.setattr(bridge, "_shared", None)
    yield
    if bridge._shared is not None:
        bridge._shared[1].close()
