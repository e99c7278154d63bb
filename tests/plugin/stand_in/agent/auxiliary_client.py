"""Stand-in for ``agent.auxiliary_client``: the cancellation Hermes raises to unwind a compaction
attempt."""

from __future__ import annotations


class AuxiliaryExplicitCancellation(BaseException):
    """The host cancelled the attempt; a ``BaseException``, so ``except Exception`` passes it on."""

    def __init__(self) -> None:
        super().__init__("auxiliary request explicitly cancelled by host")
