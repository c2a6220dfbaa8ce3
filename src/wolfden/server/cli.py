"""``wolfden serve``: the multiplayer server on uvicorn."""

from __future__ import annotations

import gc
import logging
import socket
from pathlib import Path

import click

from wolfden.server.settings import Settings


def local_address() -> str | None:
    """This machine's address on the local network, or None (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.168.0.1", 9))  # a UDP connect only picks the outgoing interface
            address = str(s.getsockname()[0])
        except OSError:
            return None
    return None if address.startswith("127.") else address


@click.command("serve")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on. 0.0.0.0 opens it to your local network (see docs/server.md).",
)
@click.option(
    "--port",
    default=8000,
    show_default=True,
    type=click.IntRange(0, 65535),
    help="Port to listen on.",
)
@click.option(
    "--db",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="SQLite database file [default: wolfden.sqlite3 in your user data directory].",
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
    help="Set the moderators' token (16+ characters); without it one is made and printed "
    "at first start.",
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
    "--log-level",
    type=click.Choice(["debug", "info", "warning", "error"]),
    default="info",
    show_default=True,
)
def serve_command(
    host: str,
    port: int,
    db: Path | None,
    grace: float,
    bot_delay: float,
    time_scale: float,
    admin_token: str | None,
    rooms_per_minute: int,
    messages_per_second: float,
    log_level: str,
) -> None:
    """Start the multiplayer server: friends open its address on their phones and play."""
    import uvicorn

    from wolfden.server.app import create_app
    from wolfden.storage.rooms import StorageError, default_db_path

    logging.basicConfig(level=log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    settings = Settings(
        db=db or default_db_path(),
        grace_seconds=grace,
        bot_delay=bot_delay,
        time_scale=time_scale,
        admin_token=admin_token,
        rooms_per_minute=rooms_per_minute,
        messages_per_second=messages_per_second,
        message_burst=max(1, round(2 * messages_per_second)),
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
    if host not in ("127.0.0.1", "localhost", "::1"):
        click.echo(
            f"warning: listening on {host}: anyone who can reach this machine on port {port} "
            "can open rooms here. Use this only on a network you trust.",
            err=True,
        )
    click.echo(
        f"wolfden is serving at http://{'127.0.0.1' if host == '0.0.0.0' else host}:{port}/ "
        f"(database: {settings.db})",
        err=True,
    )
    if host == "0.0.0.0" and (address := local_address()):
        click.echo(f"phones on your network: http://{address}:{port}/", err=True)
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level=log_level,
        ws_max_size=65536,
        ws_per_message_deflate=False,
        ws_ping_interval=20,
        ws_ping_timeout=20,
        lifespan="on",
    )
