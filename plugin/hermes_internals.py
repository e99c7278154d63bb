"""The private Hermes names the engine relies on, looked up once so a Hermes release that renamed
one is detected at startup instead of failing in the middle of a compaction.

Several internals differ between Hermes releases; each lookup here accepts the known variants. The
steps of Hermes's summary step that only some releases have (cancellation and superseded-attempt
checks, pruned-skill markers, the user-provenance check, the overload streak) are looked up where
they are used and skipped on a release without them; the startup check requires only what every
supported release has.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any, cast

REQUIRED_METHODS = (
    "_generate_summary",
    "_build_static_fallback_summary",
    "_with_summary_prefix",
    "_ground_historical_task_snapshot",
    "_compute_summary_budget",
    "_clear_compression_failure_cooldown",
)
"""``ContextCompressor`` methods the engine calls, overrides or falls back on (Hermes's static
summary is what a failed projection leaves Hermes to insert). They are looked up on Hermes's class,
not on the engine, whose own overrides would otherwise always be found."""

REQUIRED_ATTRIBUTES = ("_previous_summary", "_session_id", "context_length")
"""``ContextCompressor`` instance attributes the engine reads or writes."""

_COMPRESSOR_MODULE = "agent.context_compressor"
_REDACT_FUNCTIONS = (
    (_COMPRESSOR_MODULE, "_redact_compaction_text"),
    ("agent.redact", "redact_sensitive_text"),
)
_ANCHOR_BUILDER = (_COMPRESSOR_MODULE, "_build_anchor_index")
_CANCELLATION = ("agent.auxiliary_client", "AuxiliaryExplicitCancellation")
_STALE_ATTEMPT_CHECK = ("agent.conversation_compression", "_raise_if_stale_attempt")
_CONFIG_LOADERS = (
    ("hermes_cli.config", "load_config_readonly"),
    ("hermes_cli.config", "load_config"),
)


def missing_internals(engine: object, base: type) -> list[str]:
    """Names of the internals Hermes's compressor class ``base`` or ``engine`` (a constructed
    subclass of it) lacks; empty when all exist."""
    missing = [name for name in REQUIRED_METHODS if not callable(getattr(base, name, None))]
    missing += [name for name in REQUIRED_ATTRIBUTES if not hasattr(engine, name)]
    if redactor(engine) is None:
        missing.append("_redact_compaction_text or agent.redact.redact_sensitive_text")
    return missing


def redactor(engine: object) -> Callable[[str], str] | None:
    """Hermes's redaction for compaction text: the compressor's own method where the release has
    one, else the compaction redactor of its module (which also masks URL credentials, whatever
    the user's redaction setting), else the general redactor older releases call."""
    candidates = [getattr(engine, "_redact_compaction_text", None)]
    candidates += [_import_attribute(module, name) for module, name in _REDACT_FUNCTIONS]
    function = next((candidate for candidate in candidates if callable(candidate)), None)
    return cast("Callable[[str], str] | None", function)


def lean_augmenter(engine: object) -> Callable[[str, list[dict[str, Any]]], str] | None:
    """Hermes's lean-mode augmentation (anchor index, verbatim user messages, recovery note), on
    releases that have it; it decides itself whether the configured tail mode wants it."""
    method = getattr(engine, "_augment_summary_lean", None)
    return method if callable(method) else None


ANCHOR_BUILDER_NAME = _ANCHOR_BUILDER[1]
"""The name of Hermes's anchor-index builder in the module ``anchor_builder_module`` returns."""


def anchor_builder_module() -> Any:
    """The module whose function ``_build_anchor_index(turns)`` builds the anchor index that lean
    augmentation appends (looking it up there each time), on releases that have one; else
    ``None``."""
    module_name, name = _ANCHOR_BUILDER
    try:
        module = importlib.import_module(module_name)
    except ImportError:
        return None
    return module if callable(getattr(module, name, None)) else None


def raise_if_cancelled(engine: object) -> None:
    """Raises Hermes's cancellation (``AuxiliaryExplicitCancellation``) when the host has cancelled
    this compaction attempt, on releases that can; its summary step raises it at the same points."""
    cancelled = getattr(engine, "_compression_cancelled", None)
    cancellation = _import_attribute(*_CANCELLATION)
    if callable(cancelled) and isinstance(cancellation, type) and cancelled():
        raise cancellation()


def raise_if_stale(engine: object) -> None:
    """Raises Hermes's cancellation when a newer compaction attempt has begun summary work on
    ``engine``, so this one writes no shared state; on releases that track attempts."""
    check = _import_attribute(*_STALE_ATTEMPT_CHECK)
    if callable(check):
        check(engine)


def pruned_skill_names(turns: list[dict[str, Any]], previous: str | None) -> list[str]:
    """The skills whose instructions this compaction loses (pruned or oversized ``skill_view``
    results in ``turns``, and markers the previous summary carries), in Hermes's order and as many
    as Hermes keeps; empty on releases without the ghost-skill defense."""
    collect = _import_attribute(_COMPRESSOR_MODULE, "_collect_ghosted_skill_names")
    extract = _import_attribute(_COMPRESSOR_MODULE, "_extract_pruned_skill_names")
    if not (callable(collect) and callable(extract)):
        return []
    names = list(dict.fromkeys([*collect(turns), *extract(previous or "")]))
    limit = _import_attribute(_COMPRESSOR_MODULE, "_MAX_PRUNED_SKILL_MARKERS")
    return names[:limit] if isinstance(limit, int) else names


def reinject_skill_markers(summary: str, names: list[str]) -> str:
    """``summary`` with Hermes's prune marker for each of ``names`` it lacks (Hermes appends them as
    a ``## Pruned Skills`` block), on releases with the ghost-skill defense."""
    reinject = _import_attribute(_COMPRESSOR_MODULE, "_reinject_pruned_skill_markers")
    return str(reinject(summary, names)) if callable(reinject) and names else summary


def window_past_handoffs(
    engine: Any, messages: list[dict[str, Any]], start: int, end: int
) -> tuple[int, int]:
    """``(start, end)``, or, when every row in it is an earlier summary (a window Hermes would skip
    as no progress), ``(start, cut)`` with ``cut`` Hermes's own tail cut of the rows after them; as
    given when that cut takes no row, or the release lacks either step."""
    is_handoff = getattr(engine, "_is_context_summary_message", None)
    tail_cut = getattr(engine, "_find_tail_cut_by_tokens", None)
    if not (callable(is_handoff) and callable(tail_cut)) or start >= end:
        return start, end
    if not all(is_handoff(message) for message in messages[start:end]):
        return start, end
    cut = tail_cut(messages, end)
    return (start, cut) if isinstance(cut, int) and end < cut <= len(messages) else (start, end)


def validate_user_provenance(engine: Any, summary: str, turns: list[dict[str, Any]]) -> None:
    """Hermes's check that a summary attributes no request to a user when the session has none
    (it raises ``RuntimeError`` then), on releases that make it. Whether the session has a user
    turn is decided as Hermes's summary step does: the flag its handoff scan set, else the turns."""
    validate = getattr(engine, "_validate_summary_user_provenance", None)
    if not callable(validate):
        return
    has_user_turn = getattr(engine, "_summary_has_user_turn", None)
    if has_user_turn is None:
        has_user_turn = engine._transcript_has_real_user_turn(turns)
    validate(summary, has_user_turn)


def quoted_user_turn(engine: object, turns: list[dict[str, Any]]) -> tuple[int, str] | None:
    """The message Hermes quotes when it grounds the task snapshot, as its index in ``turns`` and
    the line Hermes writes for it: the newest message its own snapshot builder accepts (a real user
    message with text). ``None`` when it quotes none, or the release has no such builder."""
    snapshot = getattr(engine, "_latest_user_task_snapshot", None)
    if not callable(snapshot):
        return None
    for index in range(len(turns) - 1, -1, -1):
        if turns[index].get("role") != "user":
            continue
        lines = snapshot([turns[index]])
        if isinstance(lines, str):
            return index, lines.split("\n", 1)[0]
    return None


def clear_summary_failure_state(engine: Any) -> None:
    """What Hermes's summary step resets after a summary succeeded: the failure cooldown, the
    last error, the switch to the main model, the terminal failure flags and, where the release
    counts them, the overload aborts in a row."""
    engine._clear_compression_failure_cooldown()
    for name in ("_summary_model_fallen_back", *terminal_failure_flags(engine)):
        setattr(engine, name, False)
    engine._last_summary_error = None
    reset_overload = getattr(engine, "_reset_consecutive_overload_aborts", None)
    if callable(reset_overload):
        reset_overload()


def terminal_failure_flags(engine: object) -> tuple[str, ...]:
    """The compressor's terminal summary-failure flags: the names its release lists in
    ``_TERMINAL_SUMMARY_FAILURES``, else its ``_last_summary_*_failure`` attributes."""
    table = getattr(engine, "_TERMINAL_SUMMARY_FAILURES", None)
    if isinstance(table, (tuple, list)):
        names = [entry[0] for entry in table if isinstance(entry, (tuple, list)) and entry]
        return tuple(name for name in names if isinstance(name, str))
    return tuple(
        sorted(
            name
            for name in vars(engine)
            if name.startswith("_last_summary_") and name.endswith("_failure")
        )
    )


def config_loader() -> Callable[[], Mapping[str, Any]] | None:
    """Hermes's reader of ``config.yaml`` (defaults merged in); ``None`` if it cannot be found."""
    for module, name in _CONFIG_LOADERS:
        loader = _import_attribute(module, name)
        if callable(loader):
            return cast("Callable[[], Mapping[str, Any]]", loader)
    return None


def _import_attribute(module: str, name: str) -> Any:
    try:
        return getattr(importlib.import_module(module), name, None)
    except ImportError:
        return None


AUTO_FOCUS_PREFIX = "Recent user focus:"
"""How Hermes's own focus hint starts when no ``/compress TOPIC`` was given: it lists the recent
user turns, which vcc's session log already keeps, so it is not a topic to rank by."""


def explicit_focus(topic: str | None) -> str | None:
    """The focus topic the user gave, or ``None`` for none or for Hermes's derived hint."""
    if not topic or topic.startswith(AUTO_FOCUS_PREFIX):
        return None
    return topic


def session_store_path(engine: object) -> str | None:
    """The ``state.db`` the engine's session is stored in: the session database Hermes bound to
    the engine, else the one in Hermes's home; ``None`` when neither is known."""
    bound = getattr(getattr(engine, "_session_db", None), "db_path", None)
    if bound:
        return str(bound)
    home = _import_attribute("hermes_constants", "get_hermes_home")
    try:
        return str(home() / "state.db") if callable(home) else None
    except Exception:  # a Hermes without a home cannot be read
        return None


def session_search_recall() -> dict[str, str]:
    """How the running Hermes lets the model open a cited message: ``{"via": "tool_call"}`` when
    ``session_search`` is deferred behind Hermes's tool-search bridge, and the active ``profile``
    (naming it lets a search read the agent's own session, which some releases refuse otherwise)."""
    recall: dict[str, str] = {}
    load = _import_attribute("tools.tool_search", "load_config_readonly")
    deferrable = _import_attribute("tools.tool_search", "is_deferrable_tool_name")
    try:
        if callable(load) and callable(deferrable):
            config = load()
            if config.enabled != "off" and deferrable(
                "session_search", config.effective_defer_tools
            ):
                recall["via"] = "tool_call"
    except Exception:  # an unreadable tool-search config leaves the tool direct
        pass
    profile_name = _import_attribute("hermes_cli.profiles", "get_active_profile_name")
    try:
        name = profile_name() if callable(profile_name) else None
    except Exception:  # no profile then
        name = None
    if isinstance(name, str) and name and name != "custom":
        recall["profile"] = name
    return recall
