"""What can go wrong between the engine and ``vcc serve``."""

from __future__ import annotations

from typing import Any


class BridgeError(Exception):
    """The bridge could not deliver a projection; the engine falls back for this compaction."""


class BridgeUnavailable(BridgeError):
    """No server to ask: none found, or the client has stopped trying after repeated failures."""


class BridgeVersionMismatch(BridgeUnavailable):
    """The server's version differs from the plugin's; it is not used."""


class BridgeCrashed(BridgeError):
    """The server exited (or its pipe broke) before answering."""


class BridgeTimeout(BridgeError):
    """The server did not answer within the request timeout."""


class BridgeProtocolError(BridgeError):
    """The server wrote something that is not a JSON-RPC response."""


class BridgeRequestError(BridgeError):
    """The request could not be sent (not encodable as JSON, or over the server's size limit)."""


class BridgeRemoteError(BridgeError):
    """The server answered with a JSON-RPC error."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(f"vcc answered error {code}: {message}")
        self.code = code
        self.data = data
