"""A client that stops reading is dropped once its queue of unsent frames is full, and its
socket is closed at that moment, not when the keep-alive ping gives up on it (tens of seconds
later), so it holds nothing of the server's and shows as gone at once."""

from __future__ import annotations

import base64
import os
import socket
import time
from typing import Any

from tests.server.conftest import Client


def never_reading_client(port: int, hello: str) -> socket.socket:
    """A WebSocket client with a 4 KiB receive buffer that says hello and then reads nothing."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.settimeout(10)
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    answer = b""
    while b"\r\n\r\n" not in answer:  # the 101 answer, and nothing after it
        answer += sock.recv(1)
    assert answer.startswith(b"HTTP/1.1 101"), answer
    payload, mask = hello.encode(), os.urandom(4)
    assert len(payload) <= 125
    frame = bytes([0x81, 0x80 | len(payload)]) + mask
    sock.sendall(frame + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
    return sock


def test_a_client_too_far_behind_is_closed_at_once(make_server: Any) -> None:
    server = make_server(send_queue_limit=4)
    made = server.create()
    code, token = made["code"], made["token"]
    watcher = Client(server, code, token)  # another connection of the host
    watcher.sync()
    guest = server.join(code, "Bo")
    hello = f'{{"type": "hello", "v": 2, "room": "{code}", "token": "{guest["token"]}"}}'
    sock = never_reading_client(server.port, hello)

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
        assert time.monotonic() < end, f"the queue never overflowed (dead: {conn.dead})"
    dropped = time.monotonic()
    # the server lets go of it: gone from the room, its socket closed (the keep-alive ping
    # would only notice after 40 s)
    while server.call(lambda: room.connected(guest["participant"])):
        assert time.monotonic() < dropped + 10, "the slow client still counts as connected"
        server.settle()

    def gone() -> bool:  # the room told the others
        people = {p["id"]: p for p in (watcher.room or {}).get("participants", [])}
        return guest["participant"] in people and not people[guest["participant"]]["connected"]

    watcher.wait(gone, timeout=10)
    sock.close()
