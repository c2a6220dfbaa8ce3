"""Server settings: one frozen dataclass, defaults in one place."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

WEB_DIR = Path(__file__).resolve().parent.parent / "web"


@dataclass(frozen=True, kw_only=True)
class Settings:
    db: str | Path | None = None
    """The SQLite file; None → ``wolfden.sqlite3`` in the user's data directory."""
    bus: str | None = None
    """The Redis address of a cluster's bus (``redis://host:6379/0``): this server is one node
    of several sharing the database ``db``. None: a single server."""
    lease_seconds: float = 10.0
    """In a cluster: how long a node's hold on a room lasts without renewal (renewed three
    times per length); a node that died is replaced after about this long."""
    web_dir: Path | None = WEB_DIR
    """The static web client served at ``/`` (if the directory exists)."""
    grace_seconds: float = 60.0
    """Default for new rooms: how long a disconnected player keeps their seat untouched."""
    bot_delay: float = 1.5
    """Default for new rooms: seconds a bot waits before it acts, so people can follow."""
    time_scale: float = 1.0
    """Deadlines pass this many times faster (for demos and tests; 1 in real play)."""
    max_body_bytes: int = 1_048_576
    """Largest HTTP request body read; larger ones get ``413 too_large`` before parsing (a
    word list of 5,000 entries fits several times over)."""
    max_message_bytes: int = 8192
    """Largest WebSocket message handled; larger ones get ``too_large``."""
    messages_per_second: float = 20.0
    message_burst: int = 40
    flood_limit: int = 200
    """Messages dropped for rate in a row after which the connection is closed (code 1008)."""
    send_queue_limit: int = 256
    """Frames waiting for a slow client after which it is disconnected (it reconnects fresh)."""
    storage_retry_seconds: float = 2.0
    """After the database refused a clock or bot action (disk full, locked), retry this late."""
    wrong_codes_per_minute: int = 20
    """Lookups of room codes that do not exist, per client address, before ``429``."""
    admin_token: str | None = None
    """The moderators' token; None → keep the stored one (a new one is printed at first start)."""
    rooms_per_minute: int = 30
    """Rooms one client address may create per minute."""
    max_participants: int = 64
    """People (players, spectators, table screens) in one room."""
    lan: bool = False
    """The server listens on every interface: a room's link through loopback gets this machine's
    local network address instead (see ``wolfden.server.address``)."""
    lan_command: str = "wolfden serve --lan"
    """The command that serves on the local network, named where a room's link cannot work."""
    estimate_worker: str = "wolfden.sim.estimate"
    """The module whose ``measure`` the setup editor's estimate workers run (imported in the
    workers only)."""
    estimate_workers: int = 2
    """Worker processes for setup estimates (started with the first estimate)."""
    estimates_at_once: int = 4
    """Setup estimates running at once in the whole server; more get ``503 busy``."""
    estimates_per_minute: int = 120
    """Setup estimates one client address may ask for per minute."""
