"""``wolfden serve``: the multiplayer server on uvicorn."""

from __future__ import annotations

import contextlib
import gc
import logging
import os
import ssl
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from wolfden.server.address import ALL_INTERFACES, lan_address, unreachable_host
from wolfden.server.settings import Settings

DEFAULT_PORT = 8000
LAUNCHER_ENV = "WOLFDEN_SERVE_COMMAND"
"""Set by ``dev.py serve`` to ``python3 dev.py serve``: how the host started this server, so the
fix it is told names that command (``wolfden serve`` otherwise)."""


class _KeyNeedsPassword(Exception):
    pass


def _no_password() -> str:
    raise _KeyNeedsPassword


def check_tls(certfile: Path | None, keyfile: Path | None) -> None:
    """Refuse, with a message saying why, a certificate and key uvicorn could not serve with."""
    if certfile is None and keyfile is None:
        return
    if certfile is None or keyfile is None:
        raise click.UsageError(
            "HTTPS needs both --certfile (the certificate chain, PEM) and --keyfile (its "
            "private key, PEM); give both, or neither to serve plain HTTP."
        )
    try:
        ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER).load_cert_chain(
            certfile, keyfile, password=_no_password
        )
    except _KeyNeedsPassword:
        raise click.UsageError(
            f"the private key {keyfile} is encrypted; give an unencrypted PEM key file "
            "(readable only by you)."
        ) from None
    except (ssl.SSLError, OSError) as exc:
        raise click.UsageError(
            f"cannot serve HTTPS with --certfile {certfile} and --keyfile {keyfile}: they must "
            f"be a PEM certificate chain and the PEM private key that belongs to it ({exc})."
        ) from None


def startup_message(host: str, port: int, *, https: bool, lan_command: str) -> str:
    """What the terminal says once the server listens: where to open it, who else can."""
    scheme = "https" if https else "http"
    everywhere = host in ALL_INTERFACES
    here = (
        f"{scheme}://127.0.0.1:{port}/" if everywhere else f"{scheme}://{_url_host(host)}:{port}/"
    )
    if not everywhere and unreachable_host(host):
        return (
            f"wolfden is serving at {here} - only this computer can open it.\n"
            f"  For phones on your Wi-Fi, stop it (Ctrl+C) and start: {lan_command}"
        )
    lines = []
    if everywhere:
        address = lan_address()
        if address is None:
            lines.append(
                f"wolfden is listening on every address of this computer (port {port}), but it "
                "has no address on a local network now.\n"
                f"  Connect it to the Wi-Fi the phones use, then open {here} here: the room's "
                "link and QR code will point at its address on that network."
            )
        else:
            lines.append(
                f"wolfden is listening on your local network (every address of this computer, "
                f"port {port}).\n"
                f"  Open on this computer and on the phones on the same Wi-Fi: "
                f"{scheme}://{address}:{port}/"
            )
    else:
        lines.append(f"wolfden is listening on {host}, port {port}: open {here}")
    lines.append("  Anyone on this network can open the page and join a room whose code they know.")
    if not https:
        lines.append(
            "  The traffic is plain HTTP: on an open Wi-Fi, or one shared with strangers, others\n"
            "  could read it, room tokens included. Play on a network you trust."
        )
    lines.append(
        "  To stop serving: Ctrl+C. Without --lan only this computer can open the page.\n"
        "  HTTPS and hosting on the internet: docs/deploy.md."
    )
    return "\n".join(lines)


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def lan_command(port: int, certfile: Path | None, keyfile: Path | None) -> str:
    """The command that serves this server on the local network (what the page names)."""
    words = [os.environ.get(LAUNCHER_ENV) or "wolfden serve", "--lan"]
    if port != DEFAULT_PORT:
        words.append(f"--port {port}")
    if certfile is not None and keyfile is not None:
        words.append(f"--certfile {certfile} --keyfile {keyfile}")
    return " ".join(words)


def run(app: Any, message: Callable[[int], str], **options: Any) -> None:
    """uvicorn.run, saying ``message(port)`` once the server listens on ``port`` (so that it is
    the last thing on the screen, after uvicorn's own lines; a port already in use never gets
    it; with ``--port 0`` it names the port the system chose)."""
    import uvicorn

    class Server(uvicorn.Server):
        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets)
            if self.started and not self.should_exit:
                port = self.servers[0].sockets[0].getsockname()[1] if self.servers else 0
                click.echo(message(int(port) or options.get("port", 0)), err=True)

    with contextlib.suppress(KeyboardInterrupt):
        Server(uvicorn.Config(app, **options)).run()


@click.command("serve")
@click.option(
    "--lan",
    is_flag=True,
    help="Listen on the local network (every address of this computer), so that phones on "
    "the same Wi-Fi can join; see docs/deploy.md for what that opens.",
)
@click.option(
    "--host",
    default=None,
    help="Address to listen on  [default: 127.0.0.1, this computer only; 0.0.0.0 with --lan].",
)
@click.option(
    "--port",
    default=DEFAULT_PORT,
    show_default=True,
    type=click.IntRange(0, 65535),
    help="Port to listen on.",
)
@click.option(
    "--certfile",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="Serve HTTPS with this certificate chain (PEM); needs --keyfile.",
)
@click.option(
    "--keyfile",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="The private key (PEM, unencrypted) of --certfile.",
)
@click.option(
    "--db",
    default=None,
    metavar="FILE|postgresql://…",
    help="SQLite database file, or the address of a PostgreSQL database that several server "
    "nodes share (needs wolfden[nodes]) [default: wolfden.sqlite3 in your user data "
    "directory].",
)
@click.option(
    "--bus",
    default=None,
    metavar="redis://…",
    help="Run as one node of a cluster: the address of the Redis server the nodes pass "
    "requests and views through; --db is then the PostgreSQL database they share (needs "
    "wolfden[nodes]; see docs/deploy.md).",
)
@click.option(
    "--lease",
    type=click.FloatRange(0.5, 600),
    default=10.0,
    show_default=True,
    help="With --bus: seconds a node's hold on a room lasts without renewal; a node that "
    "died is replaced after about this long.",
)
@click.option(
    "--grace",
    type=click.FloatRange(0, 3600),
    default=60.0,
    show_default=True,
    help="Seconds a disconnected player keeps their seat before the room's absence rule applies.",
)
@click.option(
    "--bot-delay",
    type=click.FloatRange(0, 60),
    default=1.5,
    show_default=True,
    help="Seconds a bot waits before acting, so people can follow.",
)
@click.option(
    "--time-scale",
    type=click.FloatRange(0.001, 10000),
    default=1.0,
    show_default=True,
    help="Let deadlines pass this many times faster (demos and tests).",
)
@click.option(
    "--admin-token",
    default=None,
    envvar="WOLFDEN_ADMIN_TOKEN",
    show_envvar=True,
    help="Set the moderators' token (16+ characters); without it one is made and printed "
    "at first start. Given here it is visible to every user of this computer (ps): prefer "
    "the environment variable WOLFDEN_ADMIN_TOKEN or --admin-token-file.",
)
@click.option(
    "--admin-token-file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="Read the moderators' token from this file (its first line; keep the file readable "
    "only by you).",
)
@click.option(
    "--rooms-per-minute",
    type=click.IntRange(1, 100_000),
    default=30,
    show_default=True,
    help="Rooms one client address may create per minute.",
)
@click.option(
    "--messages-per-second",
    type=click.FloatRange(1, 1_000_000),
    default=20.0,
    show_default=True,
    help="Messages one connection may send per second, in bursts of twice as many; more are "
    "dropped with a 'rate_limited' error.",
)
@click.option(
    "--forwarded-allow-ips",
    default="",
    metavar="ADDRESSES",
    help="Comma-separated addresses of reverse proxies whose X-Forwarded-For and "
    "X-Forwarded-Proto headers are believed ('*': any). Default: none; the client is the "
    "address the connection comes from, so no one can reset the per-address limits with a "
    "header. See docs/deploy.md.",
)
@click.option(
    "--log-level",
    type=click.Choice(["debug", "info", "warning", "error"]),
    default="info",
    show_default=True,
)
def serve_command(
    lan: bool,
    host: str | None,
    port: int,
    certfile: Path | None,
    keyfile: Path | None,
    db: str | None,
    bus: str | None,
    lease: float,
    grace: float,
    bot_delay: float,
    time_scale: float,
    admin_token: str | None,
    admin_token_file: Path | None,
    rooms_per_minute: int,
    messages_per_second: float,
    forwarded_allow_ips: str,
    log_level: str,
) -> None:
    """Start the multiplayer server: friends open its address on their phones and play."""
    from wolfden.server.app import create_app
    from wolfden.storage.rooms import (
        StorageError,
        default_db_path,
        is_database_address,
        redact_password,
    )

    if lan and host is not None:
        raise click.UsageError(
            "give --lan (listen on every address of this computer) or --host ADDRESS, not both."
        )
    host = "0.0.0.0" if lan else host or "127.0.0.1"
    check_tls(certfile, keyfile)
    if admin_token_file is not None:
        if admin_token is not None:
            raise click.UsageError(
                "give the admin token with --admin-token-file or with --admin-token (or "
                "WOLFDEN_ADMIN_TOKEN), not both."
            )
        try:
            lines = admin_token_file.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise click.UsageError(
                f"cannot read --admin-token-file {admin_token_file}: {exc}"
            ) from None
        admin_token = lines[0].strip() if lines else ""
    if bus is not None:
        from wolfden.server.bus import check_address

        try:
            check_address(bus)
        except ValueError as exc:
            raise click.UsageError(str(exc)) from None
        if not is_database_address(db):
            raise click.UsageError(
                "--bus runs this server as one node of several, which share one database: "
                "give --db postgresql://user@host/database too."
            )
    fix = lan_command(port, certfile, keyfile)
    logging.basicConfig(level=log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    settings = Settings(
        db=db if is_database_address(db) else Path(db) if db else default_db_path(),
        bus=bus,
        lease_seconds=lease,
        grace_seconds=grace,
        bot_delay=bot_delay,
        time_scale=time_scale,
        admin_token=admin_token,
        rooms_per_minute=rooms_per_minute,
        messages_per_second=messages_per_second,
        message_burst=max(1, round(2 * messages_per_second)),
        lan=host in ALL_INTERFACES,
        lan_command=fix,
    )
    try:
        app = create_app(settings)
    except (StorageError, ValueError) as exc:
        raise click.ClickException(str(exc)) from exc
    # Everything loaded so far (the games, the recovered rooms) lives as long as the server:
    # the cyclic collector need not walk it again, and it runs less often, as each action makes
    # thousands of short-lived containers (views) that reference counting frees anyway.
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)
    click.echo(f"wolfden's database: {redact_password(str(settings.db))}", err=True)
    run(
        app,
        lambda bound: startup_message(host, bound, https=certfile is not None, lan_command=fix),
        host=host,
        port=port,
        ssl_certfile=certfile,
        ssl_keyfile=keyfile,
        log_level=log_level,
        proxy_headers=bool(forwarded_allow_ips.strip()),
        forwarded_allow_ips=forwarded_allow_ips.strip() or "",
        ws_max_size=65536,
        ws_per_message_deflate=False,
        ws_ping_interval=20,
        ws_ping_timeout=20,
        lifespan="on",
    )
