"""A sandboxed Hermes home and the Hermes entry points the integration tests drive.

A ``Sandbox`` is a fresh directory used as ``HERMES_HOME``: its ``config.yaml`` names a model
endpoint nothing listens on (any request Hermes makes fails at once, and the summary model is
patched out anyway), turns off Hermes's runtime package installs and selects the vcc engine. The
plugin gets there the way a user puts it there: copied, or by ``vcc hermes install``. Hermes then
loads it itself, by constructing a real ``AIAgent``, and compacts through ``_compress_context``,
the host flow behind ``/compress`` and automatic compaction (session-store commit and, where the
release has it, refuse-to-grow included).
"""

from __future__ import annotations

import contextlib
import copy
import json
import logging
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import agent.context_compressor as compressor_module
import agent.redact
import hermes_cli.plugins
import hermes_constants
import pytest
from hermes_release import RELEASE
from hermes_state import SessionDB

REPO = Path(__file__).resolve().parents[2]
PLUGIN_SOURCE = REPO / "plugin"
MODEL = "test-model"
DEAD_ENDPOINT = "http://127.0.0.1:9/v1"
CONTEXT_LENGTH = 128_000

_BASE_CONFIG = f"""\
model:
  default: {MODEL}
  provider: custom
  base_url: {DEAD_ENDPOINT}
  context_length: {CONTEXT_LENGTH}
security:
  allow_lazy_installs: false
"""


def deno() -> str:
    """The Deno binary: the one on ``PATH``, else the checkout's npm-installed one."""
    found = shutil.which("deno") or str(REPO / "node_modules" / ".bin" / "deno")
    if not Path(found).exists():
        raise FileNotFoundError("deno is neither on PATH nor in node_modules/.bin")
    return found


class LLMCalled(AssertionError):
    """Raised by the stand-in for Hermes's summary model: no compaction may call it."""


@dataclass
class Recorder:
    """A stand-in for a function that records each call and answers with ``reply``."""

    reply: Callable[..., Any]
    calls: list[dict[str, Any]] = field(default_factory=list)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.calls.append(kwargs)
        return self.reply(*args, **kwargs)


def hermes_compaction_redaction(text: str) -> str:
    """What Hermes's own compaction summary goes through: the module's compaction redactor where
    the release has one, else the general redactor."""
    redact = getattr(compressor_module, "_redact_compaction_text", None)
    return str(redact(text) if callable(redact) else agent.redact.redact_sensitive_text(text))


def refuse_llm(*_args: Any, **_kwargs: Any) -> Any:
    raise LLMCalled("Hermes's summary model was called")


@dataclass
class Pass:
    """One host compaction: what went in, what came out, and what happened on the way."""

    history: list[dict[str, Any]]
    compressed: list[dict[str, Any]]
    requests: list[dict[str, Any]]
    """The ``project`` params the engine sent to ``vcc serve``."""
    llm: Recorder
    salvage: Recorder | None
    """Calls of Hermes's salvage of a grown transcript (releases with refuse-to-grow)."""
    refused_would_grow: bool
    logs: list[logging.LogRecord]

    @property
    def summary(self) -> str:
        """The compaction summary, from Hermes's summary prefix to its end marker: a row of its
        own, or part of the tail row Hermes merged it into (the test fails unless there is one)."""
        rows = summary_rows(self.compressed)
        assert len(rows) == 1, f"expected one compaction summary row, found {len(rows)}"
        content = str(rows[0]["content"])
        start = content.index(compressor_module.SUMMARY_PREFIX)
        end = content.index(compressor_module._SUMMARY_END_MARKER, start)
        return content[start : end + len(compressor_module._SUMMARY_END_MARKER)]

    def vcc_logs(self, level: int = logging.INFO) -> list[str]:
        """Messages the plugin logged at ``level`` or above."""
        return [r.getMessage() for r in self.logs if is_vcc_record(r) and r.levelno >= level]


def summary_rows(messages: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The rows carrying a compaction summary (standalone, or merged into a tail row)."""
    prefix = compressor_module.SUMMARY_PREFIX
    return [m for m in messages if isinstance(m.get("content"), str) and prefix in m["content"]]


def is_vcc_record(record: logging.LogRecord) -> bool:
    """Whether the plugin (loaded from a sandbox, under Hermes's namespace) logged ``record``."""
    return record.name.split(".")[-2:-1] == ["vcc"] or record.getMessage().startswith("vcc:")


class LogRecorder(logging.Handler):
    """Collects every record at INFO and above while installed on the root logger."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    @contextlib.contextmanager
    def installed(self) -> Iterator[LogRecorder]:
        root = logging.getLogger()
        level = root.level
        root.addHandler(self)
        root.setLevel(min(level, logging.INFO) if level else logging.INFO)
        try:
            yield self
        finally:
            root.removeHandler(self)
            root.setLevel(level)


class Sandbox:
    """A Hermes home in ``home``, made the process's ``HERMES_HOME`` while entered."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self.plugin_dir = home / "plugins" / "vcc"
        home.mkdir(parents=True, exist_ok=True)
        self._patches = pytest.MonkeyPatch()

    def __enter__(self) -> Sandbox:
        unload_plugin_modules()
        self._patches.setenv("HERMES_HOME", str(self.home))
        self._patches.delenv("VCC_BIN", raising=False)
        resolved = Path(hermes_constants.get_hermes_home()).resolve()
        assert resolved == self.home.resolve(), f"Hermes resolves its home to {resolved}"
        return self

    def __exit__(self, *_exc: object) -> None:
        unload_plugin_modules()
        self._patches.undo()

    def write_config(
        self,
        *,
        engine: str | None = "vcc",
        enable_plugin: bool | None = None,
        vcc: Mapping[str, Any] | None = None,
    ) -> None:
        """Writes ``config.yaml``; ``plugins.enabled: [vcc]`` only where the release needs it,
        unless ``enable_plugin`` says otherwise; ``vcc`` holds ``context.vcc`` settings."""
        if enable_plugin is None:
            enable_plugin = not RELEASE.user_engine_loader
        text = _BASE_CONFIG
        if engine is not None:
            text += f"context:\n  engine: {engine}\n"
            if vcc:
                text += "  vcc:\n" + "".join(f"    {k}: {json.dumps(v)}\n" for k, v in vcc.items())
        if enable_plugin:
            text += "plugins:\n  enabled: [vcc]\n"
        (self.home / "config.yaml").write_text(text, encoding="utf-8")

    def copy_plugin(self) -> None:
        """Copies the plugin's files into ``plugins/vcc`` and points it at this checkout's vcc."""
        self.plugin_dir.mkdir(parents=True, exist_ok=True)
        for source in PLUGIN_SOURCE.iterdir():
            if source.is_file():
                shutil.copy2(source, self.plugin_dir / source.name)
        self.use_checkout_vcc()

    def use_checkout_vcc(self) -> None:
        """Sets ``VCC_BIN`` to this checkout's vcc until the sandbox is left."""
        self._patches.setenv("VCC_BIN", str(REPO / "main.ts"))

    def hermes(self, *args: str) -> subprocess.CompletedProcess[str]:
        """Runs the release's own ``hermes ARGS`` (the script beside this Python) on the sandbox,
        with nothing to read on standard input."""
        script = Path(sys.executable).with_name("hermes")
        assert script.is_file(), f"no hermes command beside {sys.executable}"
        return subprocess.run(
            [str(script), *args],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=120,
            env={**os.environ, "NO_COLOR": "1"},
            check=False,
        )

    def install_with_cli(self, *options: str) -> subprocess.CompletedProcess[str]:
        """Runs ``vcc hermes install --hermes-home HOME OPTIONS`` from this checkout's source."""
        return self.vcc_hermes("install", *options)

    def vcc_hermes(
        self, command: str, *options: str, env: Mapping[str, str] | None = None
    ) -> subprocess.CompletedProcess[str]:
        """Runs ``vcc hermes COMMAND --hermes-home HOME OPTIONS`` from this checkout's source, in
        this process's environment updated with ``env``."""
        cli = [deno(), "run", "--quiet", "-A", str(REPO / "main.ts"), "hermes", command]
        return subprocess.run(
            [*cli, "--hermes-home", str(self.home), *options],
            capture_output=True,
            text=True,
            timeout=300,
            cwd=REPO,
            env={**os.environ, "NO_COLOR": "1", **(env or {})},
            check=False,
        )

    def open_store(self) -> SessionDB:
        """The sandbox's session store, ``state.db``."""
        return SessionDB(db_path=self.home / "state.db")

    def delete(self, target: object, name: str) -> None:
        """Removes ``target.name`` until the sandbox is left."""
        self._patches.delattr(target, name)

    def load_agent(self, session_id: str, store: SessionDB) -> Any:
        """Constructs an ``AIAgent`` as Hermes's CLI does for a session, which selects and loads
        the configured context engine; returns the agent."""
        from run_agent import AIAgent

        # Discovery is cached per process; a new home needs a new scan, as a new process would.
        hermes_cli.plugins.discover_plugins(force=True)
        return AIAgent(
            model=MODEL,
            base_url=DEAD_ENDPOINT,
            api_key="not-a-real-key",
            provider="custom",
            quiet_mode=True,
            skip_context_files=True,
            skip_memory=True,
            session_id=session_id,
            session_db=store,
        )


def unload_plugin_modules() -> None:
    """Stops the ``vcc serve`` children of the plugin copies Hermes loaded from sandboxes and
    forgets their modules, so the next sandbox imports its own copy."""
    loaded = [
        name
        for name, module in list(sys.modules.items())
        if Path(getattr(module, "__file__", None) or "/").parent.parts[-2:] == ("plugins", "vcc")
    ]
    for name in loaded:
        module = sys.modules.pop(name)
        shared = getattr(module, "_shared", None)
        if name.endswith(".bridge") and shared is not None:
            shared[1].close()


def store_rows(store: SessionDB, session_id: str, rows: Sequence[Mapping[str, Any]]) -> list[int]:
    """Appends ``rows`` to the session as Hermes records messages; returns their row ids."""
    return [
        store.append_message(
            session_id,
            row["role"],
            content=row.get("content"),
            tool_name=row.get("tool_name"),
            tool_calls=row.get("tool_calls"),
            tool_call_id=row.get("tool_call_id"),
            finish_reason=row.get("finish_reason"),
            reasoning=row.get("reasoning"),
            timestamp=row.get("timestamp"),
        )
        for row in rows
    ]


def load_history(store: SessionDB, session_id: str) -> list[dict[str, Any]]:
    """The session's active rows as Hermes loads them to resume, each carrying its ``_row_id``.

    Releases that cannot add the ids themselves get them from ``get_messages``, which lists the
    same active rows in the same order (checked here, row by row).
    """
    if RELEASE.row_ids_on_load:
        history = store.get_messages_as_conversation(session_id, include_row_ids=True)
    else:
        rows = store.get_messages(session_id)
        history = store.get_messages_as_conversation(session_id)
        assert [r["role"] for r in rows] == [m["role"] for m in history], "row lists differ"
        history = [{**m, "_row_id": r["id"]} for m, r in zip(history, rows, strict=True)]
    assert all(isinstance(m.get("_row_id"), int) for m in history), "a loaded row has no id"
    return history


def compact(
    agent: Any,
    history: list[dict[str, Any]],
    *,
    force: bool,
    focus_topic: str | None = None,
    llm: Callable[..., Any] = refuse_llm,
) -> Pass:
    """Compacts ``history`` through Hermes's host flow (``AIAgent._compress_context``, which the
    CLI's ``/compress`` and automatic compaction call), with Hermes's summary model replaced by
    ``llm`` (by default one that fails) and the engine's requests to ``vcc serve`` recorded."""
    engine = agent.context_compressor
    model = Recorder(llm)
    salvage = None
    requests: list[dict[str, Any]] = []
    with pytest.MonkeyPatch.context() as patches, LogRecorder().installed() as logs:
        patches.setattr(compressor_module, "call_llm", model)
        if RELEASE.refuse_to_grow:
            salvage = Recorder(compressor_module.salvage_grown_transcript)
            patches.setattr(compressor_module, "salvage_grown_transcript", salvage)
        build = getattr(engine, "build_projection_request", None)
        if build is not None:

            def recorded(*args: Any, **kwargs: Any) -> dict[str, Any]:
                request: dict[str, Any] = build(*args, **kwargs)
                requests.append(copy.deepcopy(request))
                return request

            patches.setattr(engine, "build_projection_request", recorded)
        compressed, _system_prompt = agent._compress_context(
            copy.deepcopy(history), None, focus_topic=focus_topic, force=force
        )
    return Pass(
        history=history,
        compressed=compressed,
        requests=requests,
        llm=model,
        salvage=salvage,
        refused_would_grow=bool(getattr(engine, "_last_compress_refused_would_grow", False)),
        logs=logs.records,
    )
