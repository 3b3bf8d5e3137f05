"""The HTTP server's bounds on connections: how long a request's head may take, how many
connections are served at once, and which Host names are answered.

``judge service`` runs uvicorn (its h11 protocol) with
- ``limit_concurrency`` (``--max-connections``, default ``MAX_CONNECTIONS``): past that many open
  connections or running requests, a new request is answered 503 at once;
- ``timeout_keep_alive`` (``KEEP_ALIVE_S``): an idle kept-alive connection is closed;
- ``HeadDeadline``, uvicorn's h11 protocol with a deadline (``--header-timeout``, default
  ``HEADER_TIMEOUT_S``) for each request's head: a connection that opens and sends nothing, or
  only part of its request line and headers, is closed when it passes, so slow or half-open
  connections cannot hold the server's slots (uvicorn itself has no such timeout);
- ``host_allowed``: the Host header checked against ``--allowed-host`` (by default, for a
  service listening on a loopback address, only the loopback names: a web page elsewhere cannot
  reach it by rebinding a name of its own to 127.0.0.1).
"""

from __future__ import annotations

import ipaddress

from uvicorn.protocols.http.h11_impl import H11Protocol

MAX_CONNECTIONS = 200
HEADER_TIMEOUT_S = 10.0
KEEP_ALIVE_S = 5
#: The names a service on a loopback address answers to by default.
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")


class HeadDeadline(H11Protocol):
    """uvicorn's h11 protocol; a connection without a whole request head within
    ``header_timeout_s`` of its start (or of the previous response) is closed."""

    header_timeout_s = HEADER_TIMEOUT_S

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self._head_timer = None
        self._arm()

    def _arm(self) -> None:
        self._disarm()
        self._head_timer = self.loop.call_later(self.header_timeout_s, self._late)

    def _disarm(self) -> None:
        if getattr(self, "_head_timer", None) is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _late(self) -> None:
        self._head_timer = None
        if self.cycle is None or self.cycle.response_complete:  # no request under way
            self.transport.close()

    def handle_events(self) -> None:
        cycle = self.cycle
        super().handle_events()
        if self.cycle is not cycle:  # a whole request head arrived
            self._disarm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()  # the next request's head, on a kept-alive connection

    def connection_lost(self, exc) -> None:
        self._disarm()
        super().connection_lost(exc)


def with_header_timeout(seconds: float) -> type:
    """``HeadDeadline`` with a deadline of ``seconds`` (uvicorn's ``http=`` takes a class)."""
    return type("HeadDeadline", (HeadDeadline,), {"header_timeout_s": float(seconds)})


def default_hosts(listen: str) -> tuple[str, ...]:
    """The Host names answered by default: the loopback names for a loopback ``--host``, any
    (empty) otherwise."""
    try:
        loopback = ipaddress.ip_address(listen).is_loopback
    except ValueError:
        loopback = listen == "localhost"
    return LOOPBACK_NAMES if loopback else ()


def host_allowed(header: str | None, allowed: tuple[str, ...]) -> bool:
    """Is the Host header one of ``allowed`` (empty: any; ``*.example.org``: its subdomains)?"""
    if not allowed:
        return True
    if not header:
        return False
    host = header.strip().lower()
    if host.startswith("["):  # [::1]:8765
        host = host[1:].split("]", 1)[0]
    elif host.count(":") == 1:
        host = host.split(":", 1)[0]
    for name in allowed:
        name = name.lower()
        if host == name or (name.startswith("*.") and host.endswith(name[1:])):
            return True
    return False
