"""Stand-in for Hermes's ``agent.context_compressor``: the members of ``ContextCompressor`` that the
vcc engine uses, with the same signatures and simplified behaviour. It has the members of the 0.19
release and the 0.22 additions the engine feature-detects (cancellation, the ghost-skill defense,
the user-provenance check, the overload streak, the deterministic route ``_fallback_summary_for_
window`` with its pre-LLM feasibility skip, and the fallback streak); a test removes one to stand
for a release without it. Its "LLM" summary is a fixed string and every call to it is counted, so
tests can see which route a compaction took.
"""

from __future__ import annotations

import re
from typing import Any

from agent.auxiliary_client import AuxiliaryExplicitCancellation
from agent.redact import redact_sensitive_text

SUMMARY_PREFIX = "[CONTEXT COMPACTION — REFERENCE ONLY] Earlier turns were compacted below."
HISTORICAL_TASK_HEADING = "## Historical Task Snapshot"
LLM_SUMMARY = "## Historical Task Snapshot\nwritten by the summary model"
STATIC_FALLBACK = "## Historical Task Snapshot\nHermes's static fallback"
NO_USER_TASK_SENTINEL = "None. This session contains no user-authored turns."

_SNAPSHOT_SECTION = re.compile(r"^## Historical Task Snapshot\n.*?(?=^## |\Z)", re.S | re.M)

SKILL_PRUNED_MARKER_PREFIX = "[SKILL_PRUNED:"
_MAX_PRUNED_SKILL_MARKERS = 20
_SKILL_PRUNED_MARKER_RE = re.compile(
    re.escape(SKILL_PRUNED_MARKER_PREFIX) + r"[^\]]*?reload with skill_view\(name='([^']+)'\)"
)


def _redact_compaction_text(text: Any) -> str:
    return redact_sensitive_text(str(text or ""))


def _skill_pruned_marker(skill_name: str) -> str:
    return (
        f"{SKILL_PRUNED_MARKER_PREFIX} content lost in compression; "
        f"reload with skill_view(name='{skill_name}')]"
    )


def _extract_pruned_skill_names(text: str) -> list[str]:
    return list(dict.fromkeys(m.group(1) for m in _SKILL_PRUNED_MARKER_RE.finditer(text or "")))


def _collect_ghosted_skill_names(turns: list[dict[str, Any]]) -> list[str]:
    """Skills whose ``skill_view`` result was pruned to a marker (Hermes also counts raw bodies
    over 5,000 characters; the stand-in only reads markers)."""
    names: list[str] = []
    for message in turns:
        names += _extract_pruned_skill_names(str(message.get("content") or ""))
    return list(dict.fromkeys(names))


def _reinject_pruned_skill_markers(summary: str, skill_names: list[str]) -> str:
    markers = [_skill_pruned_marker(name) for name in skill_names]
    missing = [marker for marker in markers if marker not in summary]
    if not missing:
        return summary
    return summary + "\n\n## Pruned Skills\n" + "\n".join(missing)


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
        self._summary_has_user_turn: bool | None = None
        self._summary_failure_cooldown_until = 0.0
        self._summary_model_fallen_back = False
        self._last_summary_error: str | None = None
        self._last_summary_auth_failure = False
        self._last_summary_network_failure = False
        self._consecutive_overload_aborts = 0
        self._compression_cancelled_check: Any = None
        self._ineffective_compression_count = 0
        self._fallback_compression_streak = 0
        self._last_summary_fallback_used = False
        self._last_feasibility_skip = False
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

    def _compression_cancelled(self) -> bool:
        check = self._compression_cancelled_check
        return bool(check()) if callable(check) else False

    def _generate_summary(
        self,
        turns_to_summarize: list[dict[str, Any]],
        focus_topic: str | None = None,
        memory_context: str = "",
    ) -> str | None:
        if self._compression_cancelled():
            raise AuxiliaryExplicitCancellation()
        self.llm_calls += 1
        return None if self.llm_reply is None else self._with_summary_prefix(self.llm_reply)

    def _build_static_fallback_summary(
        self, turns_to_summarize: list[dict[str, Any]], reason: str | None = None
    ) -> str:
        return self._with_summary_prefix(STATIC_FALLBACK)

    def _fallback_summary_for_window(
        self,
        telemetry: dict[str, Any],
        turns_to_summarize: list[dict[str, Any]],
        n_dropped: int,
        feasibility_skip: bool,
    ) -> str:
        self._last_summary_fallback_used = True
        telemetry["fallback_used"] = True
        telemetry["failure_class"] = telemetry.get("failure_class") or (
            "feasibility_skip" if feasibility_skip else "summary_generation_failed"
        )
        summary = self._build_static_fallback_summary(
            turns_to_summarize, reason=None if feasibility_skip else self._last_summary_error
        )
        self._previous_summary = summary.removeprefix(f"{SUMMARY_PREFIX}\n")
        return summary

    def record_completed_compaction(
        self, *, used_fallback: bool = False, feasibility_skip: bool = False
    ) -> None:
        if feasibility_skip:
            return
        streak = self._fallback_compression_streak
        self._fallback_compression_streak = streak + 1 if used_fallback else 0
        self._reset_consecutive_overload_aborts()

    def _reset_consecutive_overload_aborts(self) -> None:
        self._consecutive_overload_aborts = 0

    @classmethod
    def _with_summary_prefix(cls, summary: str) -> str:
        return f"{SUMMARY_PREFIX}\n{summary}"

    @classmethod
    def _transcript_has_real_user_turn(cls, messages: list[dict[str, Any]]) -> bool:
        from agent.conversation_compression import _is_real_user_message

        return any(_is_real_user_message(m) for m in messages)

    @staticmethod
    def _validate_summary_user_provenance(summary: str, has_user_turn: bool) -> None:
        if has_user_turn:
            return
        match = _SNAPSHOT_SECTION.search(summary)
        snapshot = match.group(0).split("\n", 1)[-1].strip() if match else ""
        if snapshot != NO_USER_TASK_SENTINEL or re.search(r"\bUser\s+asked\s*:", summary, re.I):
            raise RuntimeError("summary invented user attribution for a session with no user")

    @classmethod
    def _latest_user_task_snapshot(cls, messages: list[dict[str, Any]]) -> str | None:
        from agent.conversation_compression import _is_real_user_message

        for message in reversed(messages):
            if not _is_real_user_message(message):
                continue
            text = re.sub(r"\s+", " ", _redact_compaction_text(message["content"]).strip())
            return (
                f"User asked (deterministic, from compacted turns): {text!r}\n"
                "Historical only; newer protected-tail messages after this summary win."
            )
        return None

    @classmethod
    def _ground_historical_task_snapshot(cls, summary: str, messages: list[dict[str, Any]]) -> str:
        snapshot = cls._latest_user_task_snapshot(messages)
        if not snapshot:
            return summary
        section = f"{HISTORICAL_TASK_HEADING}\n{snapshot}\n\n"
        if _SNAPSHOT_SECTION.search(summary):
            return _SNAPSHOT_SECTION.sub(lambda _match: section, summary, count=1).strip()
        return f"{section}{summary}".strip()

    def _clear_compression_failure_cooldown(self) -> None:
        cancelled = getattr(self, "_compression_cancelled", None)  # a test may remove it
        if callable(cancelled) and cancelled():
            return
        self._summary_failure_cooldown_until = 0.0

    def compress(
        self,
        messages: list[dict[str, Any]],
        current_tokens: int | None = None,
        focus_topic: str | None = None,
        force: bool = False,
        memory_context: str = "",
    ) -> list[dict[str, Any]]:
        """Keeps the first and the last two messages and summarises the rest; without ``force``,
        after an ineffective compaction, skips the summary step (Hermes's feasibility skip, here
        whatever the window's size)."""
        from agent.conversation_compression import _raise_if_stale_attempt

        _raise_if_stale_attempt(self)
        self._last_summary_fallback_used = self._last_feasibility_skip = False
        telemetry: dict[str, Any] = {"fallback_used": False, "failure_class": None}
        head, window, tail = messages[:1], messages[1:-2], messages[-2:]
        feasibility_skip = not force and self._ineffective_compression_count >= 1
        self._last_feasibility_skip = feasibility_skip
        summary = None
        if not feasibility_skip:
            summary = self._generate_summary(
                window, focus_topic=focus_topic, memory_context=memory_context
            )
            if not summary and self.abort_on_summary_failure:
                return messages
        if not summary:
            summary = self._fallback_summary_for_window(
                telemetry, window, len(window), feasibility_skip
            )
        self.last_telemetry = telemetry
        return [*head, {"role": "user", "content": summary, "_compressed_summary": True}, *tail]
