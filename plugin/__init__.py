"""vcc for Hermes Agent: a context engine whose compaction summaries are deterministic projections
computed by the vcc executable, with no LLM call.

Hermes loads this package from ``$HERMES_HOME/plugins/vcc/`` and calls ``register(ctx)``, which
registers the engine with ``ctx.register_context_engine``. ``context.engine: vcc`` in Hermes's
``config.yaml`` selects it. The engine module, which needs Hermes, is imported on first use, so
the bridge client (``plugin.bridge``) also imports where Hermes is not installed.
"""

from __future__ import annotations

from typing import Any

__all__ = ["VccEngine", "register"]


def register(ctx: Any) -> None:
    """Hermes's plugin entry point: registers one ``VccEngine``."""
    from .engine import VccEngine

    ctx.register_context_engine(VccEngine())


def __getattr__(name: str) -> Any:
    if name == "VccEngine":
        from .engine import VccEngine

        return VccEngine
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
