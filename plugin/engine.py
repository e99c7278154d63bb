"""``VccEngine``: Hermes's ``ContextCompressor`` with its summary step replaced by a vcc projection.

Hermes still decides when to compact, what stays verbatim, how tool results are pruned and how the
result is stored. Only the summary changes: instead of asking a model, the engine sends the window
to ``vcc serve`` and runs Hermes's own post-processing on the Markdown it gets back.
"""

from __future__ import annotations

import inspect
import logging
import re
import threading
import time
import traceback
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from agent.context_compressor import ContextCompressor

from . import fast_anchors, hermes_internals
from .binary import ServerCommand, locate_server
from .bridge import BridgeClient, shared_client
from .bridge_errors import BridgeError
from .deadline import Deadline
from .manifest import plugin_version
from .settings import VccSettings, compressor_arguments, read_settings

logger = logging.getLogger(__name__)

ENGINE_NAME = "vcc"
"""The engine's name: the value of ``context.engine`` that selects it."""

_BASE_PARAMETERS = frozenset(inspect.signature(ContextCompressor.__init__).parameters)
_SUMMARY_PARAMETERS = inspect.signature(ContextCompressor._generate_summary).parameters
_SUMMARY_TAKES_ANY_KEYWORD = any(
    p.kind is inspect.Parameter.VAR_KEYWORD for p in _SUMMARY_PARAMETERS.values()
)

_logged: set[str] = set()
_logged_lock = threading.Lock()


def _warn_once(message: str) -> None:
    with _logged_lock:
        if message in _logged:
            return
        _logged.add(message)
    logger.warning("%s", message)


class _FailedWindow(threading.local):
    """The window whose projection just failed in Hermes's summary step on this thread, so Hermes's
    deterministic route for the same window (which follows on the same thread) uses Hermes's own
    fallback instead of asking vcc again."""

    window_id: int | None = None


_failed_window = _FailedWindow()


class ProjectionRejected(Exception):
    """Hermes's own check refused a finished projection. The message names the check and never
    quotes the summary."""


class VccEngine(ContextCompressor):
    """A ``ContextCompressor`` whose summaries are vcc projections (no LLM call).

    Constructible without arguments, as Hermes builds plugin engines: it then reads Hermes's
    ``config.yaml`` itself. ``config`` passes an already-loaded config instead.
    """

    def __init__(self, config: Mapping[str, Any] | None = None) -> None:
        missing: list[str] = []
        if config is None:
            loader = hermes_internals.config_loader()
            if loader is None:
                missing.append("hermes_cli.config.load_config")
            config = _load(loader)
        read = read_settings(config)
        arguments, argument_problems = compressor_arguments(config, _BASE_PARAMETERS)
        super().__init__(**arguments)
        self._vcc_settings: VccSettings = read.settings
        for problem in (*read.problems, *argument_problems):
            _warn_once(f"vcc: {problem}")
        self._vcc_missing = (*missing, *hermes_internals.missing_internals(self, ContextCompressor))
        if self._vcc_missing:
            _warn_once(
                "vcc: this Hermes release lacks "
                + ", ".join(self._vcc_missing)
                + "; running as the stock compressor"
            )

    @property
    def name(self) -> str:
        """``vcc``, the ``context.engine`` value that selects this engine."""
        return ENGINE_NAME

    @property
    def passthrough(self) -> bool:
        """Whether a missing Hermes internal makes this engine behave as the stock compressor."""
        return bool(self._vcc_missing)

    # -- Hermes's summary routes ---------------------------------------------------------------

    def _generate_summary(
        self,
        turns_to_summarize: list[dict[str, Any]],
        focus_topic: str | None = None,
        memory_context: str = "",
        **kwargs: Any,
    ) -> str | None:
        """Hermes's summary step: the projection, or on failure the configured fallback. Raises
        Hermes's cancellation where Hermes's own step does (a cancelled or superseded attempt)."""
        _failed_window.window_id = None
        if self.passthrough:
            return self._stock_summary(turns_to_summarize, focus_topic, memory_context, kwargs)
        summary = self._projected_summary(turns_to_summarize, focus_topic)
        if summary is not None:
            return summary
        _failed_window.window_id = id(turns_to_summarize)
        if self._vcc_settings.fallback_to_llm:
            return self._stock_summary(turns_to_summarize, focus_topic, memory_context, kwargs)
        return None

    def _fallback_summary_for_window(
        self, telemetry: Any, turns_to_summarize: list[dict[str, Any]], *args: Any, **kwargs: Any
    ) -> str:
        """Hermes's deterministic route (its pre-LLM skips, a pinned deterministic summary, a
        failed summary step), on releases that have one: the projection, booked as the successful
        summary it is, not as a fallback, which Hermes counts towards benching its summary step or
        blocking automatic compaction. After the projection of this window failed, Hermes's own
        fallback, booked as Hermes books it."""
        just_failed = _failed_window.window_id == id(turns_to_summarize)
        _failed_window.window_id = None
        if not self.passthrough and not just_failed:
            summary = self._projected_summary(turns_to_summarize, None)
            if summary is not None:
                # A skip booked as such leaves the fallback streak as it was; a summary resets it.
                self._last_feasibility_skip = False
                if isinstance(telemetry, dict):
                    telemetry["failure_class"] = None
                return summary
        fallback: str = super()._fallback_summary_for_window(  # type: ignore[misc]
            telemetry, turns_to_summarize, *args, **kwargs
        )
        return fallback

    def _compress_window(self, messages: list[dict[str, Any]]) -> tuple[int, int]:
        """Hermes's choice of the rows to summarise (0.22), with one correction: a window that holds
        nothing but earlier summaries makes no progress — Hermes skips it and backs off for 300 s
        while the prompt grows past the context window, as it does after a resumed session's
        summary lands at the start of the transcript. The oldest rows of the tail after those
        summaries are summarised with them instead, chosen by Hermes's own tail cut."""
        start, end = super()._compress_window(messages)  # type: ignore[misc]
        if self.passthrough:
            return start, end
        return hermes_internals.window_past_handoffs(self, messages, start, end)

    # -- seams ---------------------------------------------------------------------------------

    def build_projection_request(
        self, turns: list[dict[str, Any]], focus_topic: str | None, *, anchors: bool = False
    ) -> dict[str, Any]:
        """The ``project`` params for a window: the turns, the session id, the previous summary to
        merge, the focus topic the user gave (not Hermes's derived hint), the budget, how the
        running Hermes opens a cited message, and (``read_store``) the session's ``state.db``, for
        vcc to read the turns' originals from (and to name a ``vcc show`` command on it); with
        ``anchors``, a request for the anchor index too."""
        path = hermes_internals.session_store_path(self)
        store = path if self._vcc_settings.read_store and self._session_id else None
        request = {
            "messages": turns,
            "session_id": self._session_id or None,
            "previous": self._previous_summary or None,
            "focus": hermes_internals.explicit_focus(focus_topic),
            "budget_tokens": self.projection_budget_tokens(turns),
            "recall": hermes_internals.session_search_recall() or None,
            "store": {"path": store, "session_id": self._session_id} if store else None,
        }
        return {**request, "anchors": True} if anchors else request

    def wants_fast_anchors(self) -> bool:
        """Whether to ask vcc for the anchor index: ``fast_anchors`` is on, this Hermes appends
        one (lean augmentation and its builder exist) and it has not been switched off."""
        return (
            self._vcc_settings.fast_anchors
            and not self.passthrough
            and hermes_internals.lean_augmenter(self) is not None
            and fast_anchors.FAST_ANCHORS.available()
        )

    def projection_budget_tokens(self, turns: list[dict[str, Any]]) -> int:
        """The smallest of ``budget_ratio`` x context length, Hermes's content-scaled summary
        budget and ``max_budget_tokens``, but at least ``min_budget_tokens``."""
        settings = self._vcc_settings
        by_ratio = int(settings.budget_ratio * self.context_length)
        by_content = int(self._compute_summary_budget(turns))
        return max(
            settings.min_budget_tokens, min(by_ratio, by_content, settings.max_budget_tokens)
        )

    def finish_summary(
        self,
        body: str,
        turns: list[dict[str, Any]],
        anchors: str | None = None,
        *,
        refs: Any = None,
    ) -> str:
        """Finishes a projection body as Hermes's own summary step finishes a model's summary, with
        each step the release has: redaction, re-injection of pruned-skill markers, task-snapshot
        grounding, lean augmentation, the user-provenance check; then, unless a newer compaction
        attempt superseded this one, records it as the previous summary and clears Hermes's failure
        state. Returns the prefixed summary Hermes inserts.

        ``anchors`` is vcc's anchor index of ``turns``, used in place of Hermes's builder once
        verified (``fast_anchors``). ``refs`` is the ``refs`` of the ``project`` result (per turn,
        its reference label or ``None``): the message Hermes's grounding quotes keeps its reference.

        Raises ``ProjectionRejected`` when Hermes's check refuses the summary, and Hermes's
        cancellation when the attempt was superseded, before writing anything."""
        redact = hermes_internals.redactor(self)
        assert redact is not None  # checked at startup
        skills = hermes_internals.pruned_skill_names(turns, self._previous_summary)
        body = hermes_internals.reinject_skill_markers(redact(body), skills)
        body = _cite_quoted_request(
            self._ground_historical_task_snapshot(body, turns),
            hermes_internals.quoted_user_turn(self, turns),
            refs,
            len(turns),
        )
        augment = hermes_internals.lean_augmenter(self)
        if augment is not None:
            with fast_anchors.FAST_ANCHORS.substituted(turns, anchors):
                body = augment(body, turns)
        try:
            hermes_internals.validate_user_provenance(self, body, turns)
        except RuntimeError:
            raise ProjectionRejected(
                "Hermes refused it: it names a user request, and the session has no user turn"
            ) from None
        hermes_internals.raise_if_stale(self)
        self._previous_summary = body
        hermes_internals.clear_summary_failure_state(self)
        return self._with_summary_prefix(body)

    # -- internals -----------------------------------------------------------------------------

    def _projected_summary(
        self, turns: list[dict[str, Any]], focus_topic: str | None
    ) -> str | None:
        """The finished projection of ``turns``, or ``None`` (logged) when it failed. Raises
        Hermes's cancellation where Hermes's summary step does: when the attempt was cancelled
        before or during the projection, or superseded before its result was recorded."""
        started = time.monotonic()
        hermes_internals.raise_if_cancelled(self)
        # One deadline for the whole compaction: starting vcc, the anchor check and the projection.
        deadline = Deadline.after(self._vcc_settings.request_timeout_seconds)
        try:
            focus_topic = self._redact_inputs(focus_topic)
            client = self._client()
            anchors = self.wants_fast_anchors() and fast_anchors.FAST_ANCHORS.check_sample(
                lambda sample: client.anchors(sample, deadline),
                lambda: client.server_info(deadline),
            )
            request = self.build_projection_request(turns, focus_topic, anchors=anchors)
            result = client.project(request, deadline)
            hermes_internals.raise_if_cancelled(self)
            summary = self.finish_summary(
                result["body"],
                turns,
                result.get("anchors") if anchors else None,
                refs=result.get("refs"),
            )
        except Exception as error:  # any failure means: fall back, never raise into Hermes
            route = (
                "Hermes's LLM summary"
                if self._vcc_settings.fallback_to_llm
                else "Hermes's deterministic fallback"
            )
            logger.warning(
                "vcc: projection of %d turns failed (%s); using %s for this compaction",
                len(turns),
                _failure_without_text(error),
                route,
            )
            return None
        logger.info(
            "vcc: projected %d turns into %d chars in %.0f ms (no LLM call)",
            len(turns),
            len(result["body"]),
            (time.monotonic() - started) * 1000,
        )
        return summary

    def _redact_inputs(self, focus_topic: str | None) -> str | None:
        """Redacts, as Hermes's summary step does before using them, the previous summary (in
        place) and ``focus_topic``; returns the redacted topic."""
        redact = hermes_internals.redactor(self)
        assert redact is not None  # checked at startup
        if self._previous_summary:
            self._previous_summary = redact(self._previous_summary)
        return redact(focus_topic) if focus_topic else focus_topic

    def _stock_summary(
        self,
        turns: list[dict[str, Any]],
        focus_topic: str | None,
        memory_context: str,
        extra: Mapping[str, Any],
    ) -> str | None:
        accepted = {
            key: value
            for key, value in extra.items()
            if _SUMMARY_TAKES_ANY_KEYWORD or key in _SUMMARY_PARAMETERS
        }
        return super()._generate_summary(
            turns, focus_topic=focus_topic, memory_context=memory_context, **accepted
        )

    def _client(self) -> BridgeClient:
        configured = self._vcc_settings.binary

        def locate() -> ServerCommand:
            return locate_server(configured)

        return shared_client(lambda: BridgeClient(locate, expected_version=plugin_version()))


_REFERENCE_LABEL = re.compile(r"#\d{1,15}|t\d{1,9}")
"""A reference label as vcc's ``refs`` gives it: ``#N`` (a stored row) or ``tN`` (a position)."""


def _cite_quoted_request(
    body: str, quoted: tuple[int, str] | None, refs: Any, turn_count: int
) -> str:
    """``body`` with the reference of the message Hermes's grounding quoted put at the start of
    Hermes's snapshot line (``[#N] User asked (deterministic, …): '…'``), as vcc reads it back.
    ``quoted`` is that message's index and Hermes's line; ``refs`` has one label (or ``None``)
    per turn. Unchanged when Hermes quoted none, or ``refs`` gives no label for it."""
    if quoted is None or not isinstance(refs, list) or len(refs) != turn_count:
        return body
    index, line = quoted
    label = refs[index]
    if not isinstance(label, str) or not _REFERENCE_LABEL.fullmatch(label):
        return body
    at_line_start = re.compile(f"^{re.escape(line)}$", re.M)
    return at_line_start.sub(lambda _match: f"[{label}] {line}", body, count=1)


def _failure_without_text(error: Exception) -> str:
    """The error's type and, for the bridge's own errors and Hermes's refusals, their message; for
    any other error where it was raised instead, since its message could quote the transcript."""
    if isinstance(error, (BridgeError, ProjectionRejected)):
        return f"{type(error).__name__}: {error}"
    frames = traceback.extract_tb(error.__traceback__)
    where = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else ""
    return f"{type(error).__name__}{where}"


def _load(loader: Callable[[], Any] | None) -> Mapping[str, Any]:
    if loader is None:
        return {}
    try:
        loaded = loader()
    except Exception as error:  # a broken config must not break Hermes
        _warn_once(f"vcc: cannot read Hermes's config ({error}); using defaults")
        return {}
    return loaded if isinstance(loaded, Mapping) else {}
