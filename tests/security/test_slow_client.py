"""A client that stops reading is dropped once its queue of unsent frames is full, and its
socket is closed at that moment, not when the keep-alive ping gives up on it (tens of seconds
later), so it holds nothing of the server's and shows as gone at once."""

from __future__ import annotations

import socket
import time
from typing import Any

from websockets.sync.client import connect

from tests.server.conftest import Client


def test_a_client_too_far_behind_is_closed_at_once(make_server: Any) -> None:
    server = make_server(send_queue_limit=4)
    made = server.create()
    code, token = made["code"], made["token"]
    watcher = Client(server, code, token)  # another connection of the host
    watcher.sync()
    guest = server.join(code, "Bo")
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", server.port))
    slow = connect(server.ws_url, sock=sock, max_queue=1, open_timeout=10)
    slow.send(f'{{"type": "hello", "v": 2, "room": "{code}", "token": "{guest["token"]}"}}')

    room = server.call(lambda: server.manager.rooms[code])
    end = time.monotonic() + 20
    while not server.call(lambda: room.connected(guest["participant"])):
        assert time.monotonic() < end, "the slow client never said hello"
        server.settle()
    (conn,) = server.call(lambda: list(room.peers[guest["participant"]]))

    big = '{"type": "pong", "id": "' + "x" * 60_000 + '"}'

    def flood() -> bool:
        for _ in range(20):
            conn.send(big)
        return bool(conn.closing)

    end = time.monotonic() + 20
    while not server.call(flood):
        assert time.monotonic() < end, "the client's queue never overflowed"
    dropped = time.monotonic()
    # the server lets go of it: gone from the room, its socket closed (the keep-alive ping
    # would only notice after 40 s)
    while server.call(lambda: room.connected(guest["participant"])):
        assert time.monotonic() < dropped + 10, "the slow client still counts as connected"
        server.settle()
    seats = watcher.expect("room")["room"]["participants"]
    assert not {p["id"]: p for p in seats}[guest["participant"]]["connected"]
    sock.close()
