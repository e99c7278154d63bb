"""Stand-in for Hermes's ``agent.context_compressor``: the members of the 0.19 release's
``ContextCompressor`` that the vcc engine uses, with the same signatures and simplified behaviour.
Its "LLM" summary is a fixed string and every call to it is counted, so tests can see which route
a compaction took.
"""

from __future__ import annotations

import re
from typing import Any

SUMMARY_PREFIX = "[CONTEXT COMPACTION — REFERENCE ONLY] Earlier turns were compacted below."
HISTORICAL_TASK_HEADING = "## Historical Task Snapshot"
LLM_SUMMARY = "## Historical Task Snapshot\nwritten by the summary model"
STATIC_FALLBACK = "## Historical Task Snapshot\nHermes's static fallback"

_SNAPSHOT_SECTION = re.compile(r"^## Historical Task Snapshot\n.*?(?=^## |\Z)", re.S | re.M)


class ContextCompressor:
    """The built-in engine, reduced to what the vcc engine touches."""

    def __init__(
        self,
        model: str,
        threshold_percent: float = 0.50,
        protect_first_n: int = 3,
        protect_last_n: int = 20,
        summary_target_ratio: float = 0.20,
        quiet_mode: bool = False,
        config_context_length: int | None = None,
        abort_on_summary_failure: bool = False,
    ) -> None:
        self.init_arguments: dict[str, Any] = {
            "model": model,
            "threshold_percent": threshold_percent,
            "protect_first_n": protect_first_n,
            "protect_last_n": protect_last_n,
            "summary_target_ratio": summary_target_ratio,
            "config_context_length": config_context_length,
            "abort_on_summary_failure": abort_on_summary_failure,
        }
        self.abort_on_summary_failure = abort_on_summary_failure
        self.context_length = config_context_length or 256_000
        self.max_summary_tokens = min(int(self.context_length * 0.05), 10_000)
        self._session_id = ""
        self._previous_summary: str | None = None
        self._summary_failure_cooldown_until = 0.0
        self._last_summary_error: str | None = None
        self._last_summary_auth_failure = False
        self._last_summary_network_failure = False
        self.llm_calls = 0
        self.llm_reply: str | None = LLM_SUMMARY

    @property
    def name(self) -> str:
        return "compressor"

    def on_session_start(self, session_id: str, **_kwargs: Any) -> None:
        self._session_id = session_id

    def update_model(self, model: str, context_length: int, **_kwargs: Any) -> None:
        self.context_length = context_length
        self.max_summary_tokens = min(int(context_length * 0.05), 10_000)

    def _compute_summary_budget(self, turns_to_summarize: list[dict[str, Any]]) -> int:
        # Hermes counts the Python text of the messages (text-only messages here), not their JSON.
        content_tokens = (sum(len(str(m)) for m in turns_to_summarize) + 3) // 4
        return max(2000, min(int(content_tokens * 0.20), self.max_summary_tokens))

    def _generate_summary(
        self,
        turns_to_summarize: list[dict[str, Any]],
        focus_topic: str | None = None,
        memory_context: str = "",
    ) -> str | None:
        self.llm_calls += 1
        return None if self.llm_reply is None else self._with_summary_prefix(self.llm_reply)

    def _build_static_fallback_summary(
        self, turns_to_summarize: list[dict[str, Any]], reason: str | None = None
    ) -> str:
        return self._with_summary_prefix(STATIC_FALLBACK)

    @classmethod
    def _with_summary_prefix(cls, summary: str) -> str:
        return f"{SUMMARY_PREFIX}\n{summary}"

    @classmethod
    def _ground_historical_task_snapshot(cls, summary: str, messages: list[dict[str, Any]]) -> str:
        asks = [m["content"] for m in messages if m.get("role") == "user"]
        if not asks:
            return summary
        section = f"{HISTORICAL_TASK_HEADING}\nUser asked: {asks[-1]!r}\n\n"
        if _SNAPSHOT_SECTION.search(summary):
            return _SNAPSHOT_SECTION.sub(lambda _match: section, summary, count=1).strip()
        return f"{section}{summary}".strip()

    def _clear_compression_failure_cooldown(self) -> None:
        self._summary_failure_cooldown_until = 0.0

    def compress(
        self,
        messages: list[dict[str, Any]],
        current_tokens: int | None = None,
        focus_topic: str | None = None,
        force: bool = False,
        memory_context: str = "",
    ) -> list[dict[str, Any]]:
        """Keeps the first and the last two messages and summarises the rest."""
        head, window, tail = messages[:1], messages[1:-2], messages[-2:]
        summary = self._generate_summary(
            window, focus_topic=focus_topic, memory_context=memory_context
        )
        if not summary:
            if self.abort_on_summary_failure:
                return messages
            summary = self._build_static_fallback_summary(window, reason=self._last_summary_error)
        return [*head, {"role": "user", "content": summary, "_compressed_summary": True}, *tail]
