"""An aiohttp transport for python-telegram-bot (a :class:`telegram.request.BaseRequest`).

python-telegram-bot sends Bot API calls through httpx by default and documents
``BaseRequest`` for other networking backends. aiohttp, already installed for discord.py, sends
a call with about a third of httpx's CPU on this kind of machine (measured in
``bench/bench_telegram.py``), and every button press costs two calls (the callback answer and
the edit of the private message), so the adapter uses this class for API calls. Long polling
(``getUpdates``) stays on python-telegram-bot's own httpx request. A call without a file goes
as one JSON body (``application/json``, which the Bot API takes for every such method); an
upload as ``multipart/form-data``.
"""

from __future__ import annotations

import json

import aiohttp
from telegram._utils.defaultvalue import DefaultValue
from telegram._utils.types import ODVInput
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

__all__ = ["AiohttpRequest"]

_JSON = {"Content-Type": "application/json"}


class AiohttpRequest(BaseRequest):
    """Bot API calls over one :class:`aiohttp.ClientSession`.

    :param connection_pool_size: simultaneous connections to the API server.
    :param read_timeout: seconds to wait for a response (``None``: no limit).
    :param connect_timeout: seconds to wait for a connection.
    """

    def __init__(
        self,
        connection_pool_size: int = 32,
        read_timeout: float | None = 10.0,
        connect_timeout: float | None = 10.0,
    ) -> None:
        self._pool = connection_pool_size
        self._read_timeout = read_timeout
        self._connect_timeout = connect_timeout
        self._session: aiohttp.ClientSession | None = None

    @property
    def read_timeout(self) -> float | None:
        """The default read timeout (seconds)."""
        return self._read_timeout

    async def initialize(self) -> None:
        """Open the session (idempotent)."""
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=self._pool),
                headers={"User-Agent": self.USER_AGENT},
                # the Bot API sets no cookies: without a jar a call costs about 30 % less
                # CPU (aiohttp filters the jar for every request)
                cookie_jar=aiohttp.DummyCookieJar(),
            )

    async def shutdown(self) -> None:
        """Close the session."""
        if self._session is not None and not self._session.closed:
            await self._session.close()
        self._session = None

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        write_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        connect_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        pool_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        """Send one request; returns ``(status, body)``.

        :raises TimedOut: when a timeout passes.
        :raises NetworkError: on any other transport failure.
        """
        if self._session is None or self._session.closed:
            raise RuntimeError("AiohttpRequest is not initialized")
        read = self._read_timeout if isinstance(read_timeout, DefaultValue) else read_timeout
        connect = (
            self._connect_timeout if isinstance(connect_timeout, DefaultValue) else connect_timeout
        )
        timeout = aiohttp.ClientTimeout(total=None, sock_read=read, sock_connect=connect)
        body: aiohttp.FormData | bytes | None = None
        headers = None
        if request_data is not None:
            files = request_data.multipart_data
            if files:
                form = aiohttp.FormData()
                for name, value in request_data.json_parameters.items():
                    form.add_field(name, value)
                for name, (filename, content, mime) in files.items():
                    form.add_field(name, content, filename=filename, content_type=mime)
                body = form
            else:
                # one JSON body (the Bot API takes application/json for every call without
                # a file): a fraction of the CPU of a form whose every value is JSON-encoded
                # and then URL-quoted
                body = json.dumps(request_data.parameters).encode()
                headers = _JSON
        try:
            async with self._session.request(
                method, url, data=body, headers=headers, timeout=timeout
            ) as response:
                return response.status, await response.read()
        except TimeoutError as exc:
            raise TimedOut from exc
        except aiohttp.ClientError as exc:
            raise NetworkError(f"aiohttp.{exc.__class__.__name__}: {exc}") from exc
