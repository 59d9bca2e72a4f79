"""A minimal HTTP/1.1 keep-alive client on asyncio streams: the lecture benchmark's wire.

Why not httpx: the load generator must send hundreds of keystrokes a second from ONE core
and stay well under that core (otherwise the latencies measure the generator, not the
server). httpx.AsyncClient spends roughly a millisecond of CPU per request on its
layers of abstraction; this client writes one pre-built request and parses one status
line, a few headers and a body, a fraction of that. It does exactly what the benchmark
needs and nothing more: one connection per simulated page (a browser keeps its own
keep-alive connection to the server), bodies by Content-Length or chunked, a silent
reconnect when the server has closed an idle connection (uvicorn closes them after 5 s),
and reading a server-sent-events stream until a marker. Only ever 127.0.0.1.
"""

from __future__ import annotations

import asyncio

MAX_HEADER = 64 * 1024


class HTTPError(Exception):
    """The connection failed or the answer could not be read."""


class Connection:
    """One keep-alive HTTP/1.1 connection to ``host:port``; one request at a time (as
    one page's grid requests are: never two in flight on one connection)."""

    def __init__(self, host: str, port: int, timeout: float = 30.0) -> None:
        if host not in ("127.0.0.1", "localhost"):
            raise ValueError("the lecture benchmark only ever connects to 127.0.0.1")
        self.host, self.port, self.timeout = "127.0.0.1", port, timeout
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.base = f"Host: 127.0.0.1:{port}\r\n".encode()

    async def _open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    def _head(self, method: str, path: str, body: bytes, headers: bytes) -> bytes:
        length = f"Content-Length: {len(body)}\r\n".encode() if method == "POST" else b""
        return (f"{method} {path} HTTP/1.1\r\n".encode() + self.base + headers + length
                + b"\r\n")

    async def request(self, method: str, path: str, body: bytes = b"",
                      headers: bytes = b"") -> tuple[int, bytes]:
        """(status, body). ``headers``: extra header lines, each ending in CRLF. A request on
        a reused connection that the server had closed meanwhile is sent again once on a
        new one (what a browser does); any other failure raises :class:`HTTPError`."""
        data = self._head(method, path, body, headers) + body
        for attempt in (0, 1):
            reused = self.writer is not None
            try:
                if not reused:
                    await self._open()
                self.writer.write(data)
                status, answer, keep = await asyncio.wait_for(self._read(), self.timeout)
            except TimeoutError as exc:  # (an OSError: caught first, and never sent again)
                self.close()
                raise HTTPError("timed out") from exc
            except (ConnectionError, asyncio.IncompleteReadError, EOFError, OSError,
                    asyncio.LimitOverrunError, ValueError) as exc:
                self.close()
                closed = isinstance(exc, (ConnectionError, EOFError)) or (
                    isinstance(exc, asyncio.IncompleteReadError) and not exc.partial)
                if reused and attempt == 0 and closed:
                    continue  # the idle connection had been closed by the server
                raise HTTPError(repr(exc)) from exc
            if not keep:
                self.close()
            return status, answer
        raise HTTPError("unreachable")

    async def _read(self) -> tuple[int, bytes, bool]:
        head = await self.reader.readuntil(b"\r\n\r\n")
        if len(head) > MAX_HEADER:
            raise ValueError("header too large")
        lines = head.split(b"\r\n")
        if not lines[0]:
            raise EOFError("connection closed")
        status = int(lines[0].split(b" ", 2)[1])
        length, chunked, keep = None, False, True
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            if name == b"content-length":
                length = int(value)
            elif name == b"transfer-encoding" and b"chunked" in value.lower():
                chunked = True
            elif name == b"connection" and b"close" in value.lower():
                keep = False
        if chunked:
            parts = []
            while True:
                size = int((await self.reader.readuntil(b"\r\n")).split(b";")[0], 16)
                if size == 0:
                    await self.reader.readuntil(b"\r\n")  # no trailers are sent to us
                    return status, b"".join(parts), keep
                parts.append(await self.reader.readexactly(size + 2))
                parts[-1] = parts[-1][:-2]
        if length is None:  # read to the end; the connection cannot be reused
            return status, await self.reader.read(), False
        return status, await self.reader.readexactly(length), keep

    async def stream_until(self, path: str, markers: tuple[bytes, ...],
                           headers: bytes = b"") -> tuple[int, bytes]:
        """GET a server-sent-events stream and read it until one of ``markers`` appears (or
        it ends); then close this connection (the stream may go on). (status, bytes read)."""
        self.close()
        try:
            await self._open()
            self.writer.write(self._head("GET", path, b"", headers))
            return await asyncio.wait_for(self._stream(markers), self.timeout)
        except (TimeoutError, ConnectionError, asyncio.IncompleteReadError, OSError,
                ValueError, asyncio.LimitOverrunError) as exc:
            raise HTTPError(repr(exc)) from exc
        finally:
            self.close()

    async def _stream(self, markers: tuple[bytes, ...]) -> tuple[int, bytes]:
        head = await self.reader.readuntil(b"\r\n\r\n")
        status = int(head.split(b"\r\n", 1)[0].split(b" ", 2)[1])
        chunked = b"chunked" in head.lower()
        seen = bytearray()
        while True:
            if chunked:  # the body without the chunks' framing, so lines stay whole
                size = int((await self.reader.readuntil(b"\r\n")).split(b";")[0], 16)
                chunk = (await self.reader.readexactly(size + 2))[:-2] if size else b""
            else:
                chunk = await self.reader.read(65536)
            if not chunk:
                return status, bytes(seen)
            seen += chunk
            if any(m in seen for m in markers):
                return status, bytes(seen)
