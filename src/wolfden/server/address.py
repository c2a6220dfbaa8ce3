"""The address phones should use: what the room's link and QR code point at.

A phone cannot open a link to 127.0.0.1 or ``localhost``: that is the phone itself. When the
host's browser opened the server through the loopback address and the server listens on the
local network, the link gets this machine's address on that network instead; when the server
listens on loopback only, the link stays as it is and the page warns that phones cannot reach
it, naming the command that fixes it.

Finding the address sends nothing: connecting a UDP socket only asks the kernel which of this
machine's addresses would be the source of a packet towards a private address (the interface of
the local network or of the default route); no packet leaves.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from fastapi import FastAPI, Request

from wolfden.server.settings import Settings

# Where a packet "would" go, in the three private ranges: the first that has a route picks the
# interface. A UDP connect sends nothing; port 9 is the discard service.
PROBES = ("192.168.0.1", "10.0.0.1", "172.16.0.1")

ALL_INTERFACES = ("0.0.0.0", "::", "")
"""``--host`` values that listen on every interface of the machine, the local network's too."""


def lan_address() -> str | None:
    """This machine's IPv4 address on its local network, or None when it has none."""
    for probe in PROBES:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            try:
                s.connect((probe, 9))
                address = str(s.getsockname()[0])
            except OSError:
                continue
        if not unreachable_host(address):
            return address
    return None


def unreachable_host(host: str) -> bool:
    """True when a link to ``host`` cannot work on another device: loopback or unspecified."""
    name = host.strip("[]").lower()
    if name == "localhost" or name.endswith(".localhost") or not name:
        return True
    try:
        ip = ipaddress.ip_address(name)
    except ValueError:
        return False  # a name: the browser that used it found this server through it
    return ip.is_loopback or ip.is_unspecified


@dataclass(frozen=True)
class PhoneAddress:
    """The base URL phones should open, and whether phones can open it at all."""

    url: str
    reachable: bool


def phone_address(base_url: str, *, lan: bool) -> PhoneAddress:
    """The base URL for other devices, from the one a browser used to reach this server.

    ``lan`` says the server listens on every interface: then a loopback base gets this
    machine's local network address (same scheme and port)."""
    parts = urlsplit(base_url)
    host = parts.hostname or ""
    if not unreachable_host(host):
        return PhoneAddress(base_url, True)
    address = lan_address() if lan else None
    if address is None:
        return PhoneAddress(base_url, False)
    netloc = f"{address}:{parts.port}" if parts.port else address
    return PhoneAddress(urlunsplit(parts._replace(netloc=netloc)), True)


def link_base(request: Request, settings: Settings) -> PhoneAddress:
    """The base URL of the room links this request is given (and whether phones can open it)."""
    return phone_address(str(request.base_url), lan=settings.lan)


def install(app: FastAPI, settings: Settings) -> None:
    """Add ``GET /api/address``: the address phones should open, for the lobby to show."""

    @app.get("/api/address", tags=["rooms"])
    async def address(request: Request) -> dict[str, Any]:
        """The base URL of room links for phones; when phones cannot open it (it points at this
        machine's loopback address), ``reachable`` is false and ``fix`` names the command that
        serves on the local network."""
        base = link_base(request, settings)
        return {
            "url": base.url,
            "reachable": base.reachable,
            "fix": None if base.reachable else settings.lan_command,
        }
