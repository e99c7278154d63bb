"""A scripted OpenAI-compatible chat-completions server on 127.0.0.1 for driving a real Hermes.

Every request is classified by its messages (``classify``): a main-loop turn of the agent, the
title Hermes asks for, a summary request of Hermes's own compressor, or anything else. Turns are
answered by a script (a callable from the request's messages to a ``Reply``); the other kinds get
a fixed short answer. Every exchange is recorded. Streaming (``stream: true``, server-sent events)
and plain JSON answers are both served, with a usage block Hermes reads its prompt size from.

The server is bounded: it refuses requests beyond ``max_requests`` and stops answering after
``deadline_seconds``, so a Hermes that loops cannot keep a test running.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

TURN = "turn"
"""A main-loop request of the agent (it offers tools)."""
TITLE = "title"
"""Hermes asking for a session title."""
SUMMARY = "summary"
"""Hermes's own compressor asking a model for a compaction summary."""
OTHER = "other"
"""Any other auxiliary request."""

_SUMMARY_MARKERS = ("TURNS TO SUMMARIZE", "NEW TURNS TO INCORPORATE", "summarization agent")
_TITLE_MARKERS = ("title for a conversation", "You name chat sessions", "short, descriptive title")
_REVIEW_MARKER = "Review the conversation above"
"""How Hermes's background memory and skill reviews begin (a second agent on the same history)."""
CHARS_PER_TOKEN = 4
"""The prompt size reported in ``usage``: characters of the request's messages and tools over
this (Hermes's rough estimate uses the same ratio)."""


@dataclass(frozen=True)
class ToolCall:
    """One tool call the model makes."""

    call_id: str
    name: str
    arguments: Mapping[str, Any]


@dataclass(frozen=True)
class Reply:
    """What the model answers: text, tool calls, or both."""

    content: str = ""
    tool_calls: Sequence[ToolCall] = ()


@dataclass
class Exchange:
    """One request the server received, its kind and the reply it sent (``None``: refused)."""

    kind: str
    body: dict[str, Any]
    reply: Reply | None
    received: float


Script = Callable[[Mapping[str, Any]], Reply]
"""The model's behaviour on a main-loop turn: the request body (messages, tools) to its reply."""


def message_text(message: Mapping[str, Any]) -> str:
    """A message's text, whether its content is a string or a list of parts."""
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(part.get("text", "")) for part in content if isinstance(part, Mapping))
    return ""


def classify(body: Mapping[str, Any]) -> str:
    """The kind of a chat-completions request, told by its messages."""
    messages = [m for m in body.get("messages") or [] if isinstance(m, Mapping)]
    texts = [message_text(m) for m in messages]
    if any(marker in text for text in texts for marker in _SUMMARY_MARKERS):
        return SUMMARY
    users = [text for m, text in zip(messages, texts, strict=True) if m.get("role") == "user"]
    if users and users[-1].startswith(_REVIEW_MARKER):
        return OTHER
    if body.get("tools"):
        return TURN
    system = " ".join(
        text for m, text in zip(messages, texts, strict=True) if m.get("role") == "system"
    )
    if any(marker in system for marker in _TITLE_MARKERS):
        return TITLE
    return OTHER


_FIXED_REPLIES = {
    TITLE: Reply("Fix the failing test"),
    SUMMARY: Reply("## Goal\nSummary written by the scripted model."),
    OTHER: Reply("ok"),
}


@dataclass
class ScriptedModel:
    """The server. ``start()`` returns its base URL; ``close()`` stops it."""

    script: Script
    max_requests: int
    deadline_seconds: float
    model: str = "scripted-model"
    exchanges: list[Exchange] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    """Problems answering (a script that raised, a request past the bounds)."""

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._started = 0.0

    def start(self) -> str:
        handler = _handler_for(self)
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        self._started = time.monotonic()
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def close(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(5)

    def of_kind(self, kind: str) -> list[Exchange]:
        with self._lock:
            return [e for e in self.exchanges if e.kind == kind]

    def answer(self, body: dict[str, Any]) -> Reply | None:
        """The reply to one request, recorded; ``None`` when the server's bounds are exceeded."""
        kind = classify(body)
        now = time.monotonic()
        with self._lock:
            over = len(self.exchanges) >= self.max_requests
            late = now - self._started > self.deadline_seconds
            if over or late:
                reason = "request limit" if over else "deadline"
                self.errors.append(f"refused a {kind} request: past the {reason}")
                self.exchanges.append(Exchange(kind, body, None, now))
                return None
        reply = _FIXED_REPLIES.get(kind)
        if reply is None:
            try:
                reply = self.script(body)
            except Exception as error:  # the model must answer; the test reads the error
                self.errors.append(f"the script raised {type(error).__name__}: {error}")
                reply = Reply(f"The scripted model failed: {error}")
        with self._lock:
            self.exchanges.append(Exchange(kind, body, reply, now))
        return reply

    def prompt_tokens(self, body: Mapping[str, Any]) -> int:
        size = len(json.dumps(body.get("messages") or [])) + len(
            json.dumps(body.get("tools") or [])
        )
        return size // CHARS_PER_TOKEN


def _handler_for(model: ScriptedModel) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            return

        def do_GET(self) -> None:
            if self.path.rstrip("/").endswith("/models"):
                self._json(
                    200, {"object": "list", "data": [{"id": model.model, "object": "model"}]}
                )
            else:
                self._json(404, {"error": {"message": f"no route {self.path}"}})

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            try:
                body = json.loads(self.rfile.read(length) or b"{}")
            except ValueError:
                self._json(400, {"error": {"message": "request body is not JSON"}})
                return
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self._json(404, {"error": {"message": f"no route {self.path}"}})
                return
            reply = model.answer(body)
            if reply is None:
                self._json(429, {"error": {"message": "scripted model: bounds exceeded"}})
                return
            usage = _usage(model.prompt_tokens(body), reply)
            if body.get("stream"):
                self._stream(
                    reply, usage, bool((body.get("stream_options") or {}).get("include_usage"))
                )
            else:
                self._json(200, _completion(model.model, reply, usage))

        def _json(self, status: int, payload: Mapping[str, Any]) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _stream(self, reply: Reply, usage: Mapping[str, int], separate_usage: bool) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Connection", "close")
            self.end_headers()
            chunks = _chunks(model.model, reply, usage, separate_usage)
            for chunk in chunks:
                self.wfile.write(b"data: " + json.dumps(chunk).encode() + b"\n\n")
            self.wfile.write(b"data: [DONE]\n\n")
            self.wfile.flush()
            self.close_connection = True

    return Handler


def _usage(prompt_tokens: int, reply: Reply) -> dict[str, int]:
    completion = max(
        1,
        (len(reply.content) + len(json.dumps([c.arguments for c in reply.tool_calls])))
        // CHARS_PER_TOKEN,
    )
    return {
        "prompt_tokens": prompt_tokens,
        "completion_tokens": completion,
        "total_tokens": prompt_tokens + completion,
    }


def _finish_reason(reply: Reply) -> str:
    return "tool_calls" if reply.tool_calls else "stop"


def _wire_calls(reply: Reply) -> list[dict[str, Any]]:
    return [
        {
            "id": call.call_id,
            "type": "function",
            "function": {"name": call.name, "arguments": json.dumps(call.arguments)},
        }
        for call in reply.tool_calls
    ]


def _completion(model: str, reply: Reply, usage: Mapping[str, int]) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": reply.content or None}
    if reply.tool_calls:
        message["tool_calls"] = _wire_calls(reply)
    return {
        "id": "chatcmpl-scripted",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": _finish_reason(reply)}],
        "usage": dict(usage),
    }


def _chunks(
    model: str, reply: Reply, usage: Mapping[str, int], separate_usage: bool
) -> list[dict[str, Any]]:
    def chunk(delta: Mapping[str, Any], finish: str | None) -> dict[str, Any]:
        return {
            "id": "chatcmpl-scripted",
            "object": "chat.completion.chunk",
            "created": int(time.time()),
            "model": model,
            "choices": [{"index": 0, "delta": dict(delta), "finish_reason": finish}],
        }

    chunks = [chunk({"role": "assistant", "content": ""}, None)]
    if reply.content:
        chunks.append(chunk({"content": reply.content}, None))
    for index, call in enumerate(_wire_calls(reply)):
        chunks.append(chunk({"tool_calls": [{"index": index, **call}]}, None))
    last = chunk({}, _finish_reason(reply))
    if separate_usage:
        chunks.append(last)
        chunks.append({**chunk({}, None), "choices": [], "usage": dict(usage)})
    else:
        chunks.append({**last, "usage": dict(usage)})
    return chunks
