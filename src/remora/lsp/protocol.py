"""The server's JSON-RPC protocol: every request answered, no traceback sent to the client.

pygls drops a request whose params it cannot deserialize (a negative position, a line
of 2**31 or more: lsprotocol's ``uinteger``): it logs the error and shows a message, but
sends no response, so the client waits forever. Here such a request is answered with an
``InvalidParams`` error naming the method. And pygls puts a handler's traceback into the
error it sends (``data.traceback``); here the traceback goes to the server's log only.
"""

from __future__ import annotations

import logging
from typing import Any

from lsprotocol.types import ResponseError
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams
from pygls.protocol import LanguageServerProtocol

__all__ = ["RemoraProtocol"]

logger = logging.getLogger(__name__)


class _Answered:
    """A request already answered with an error while it was read: nothing to handle."""

    jsonrpc = "answered"


class RemoraProtocol(LanguageServerProtocol):
    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            if not ("id" in data and "method" in data and "error" not in data):
                raise
            error: JsonRpcException = exc
            if isinstance(exc, JsonRpcInvalidParams):
                error = JsonRpcInvalidParams(
                    message=f"{data.get('method')}: the params cannot be read (a position or "
                    "number out of range, or a field of the wrong type)"
                )
            self._send_response(data["id"], error=error.to_response_error())
            return _Answered()

    def handle_message(self, message: Any) -> None:
        if isinstance(message, _Answered):
            return
        super().handle_message(message)

    def _send_response(
        self, msg_id: Any, result: Any | None = None, error: ResponseError | None = None
    ) -> None:
        if error is not None and isinstance(error.data, dict) and "traceback" in error.data:
            logger.error("request %s failed: %s\n%s", msg_id, error.message, error.data)
            error = ResponseError(code=error.code, message=error.message)
        super()._send_response(msg_id, result, error)
