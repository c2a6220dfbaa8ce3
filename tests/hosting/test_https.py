"""``wolfden serve --certfile … --keyfile …``: HTTPS and a whole match over ``wss://``.

The certificate is a throwaway one, made for 127.0.0.1 by ``trustme`` (a test dependency, in
the ``dev`` extra) and trusted by this test's clients only.
"""

from __future__ import annotations

import http.client
import json
import random
import ssl
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

trustme = pytest.importorskip("trustme")


@pytest.fixture
def certificate(tmp_path: Path) -> tuple[Path, Path, ssl.SSLContext]:
    """A certificate for 127.0.0.1 and its key in PEM files, and a client context trusting it."""
    ca = trustme.CA()
    issued = ca.issue_cert("127.0.0.1", "localhost")
    certfile, keyfile = tmp_path / "cert.pem", tmp_path / "key.pem"
    issued.cert_chain_pems[0].write_to_path(str(certfile))
    issued.private_key_pem.write_to_path(str(keyfile))
    client = ssl.create_default_context()
    ca.configure_trust(client)
    return certfile, keyfile, client


def test_a_match_is_played_over_wss(start: Any, certificate: Any) -> None:
    certfile, keyfile, client = certificate
    args = ("--certfile", str(certfile), "--keyfile", str(keyfile))
    server = start(*args, "--bot-delay", "0", "--time-scale", "200", tls=client)
    assert server.ws_url.startswith("wss://")

    # Plain HTTP gets no page: the port speaks TLS only.
    with pytest.raises((urllib.error.URLError, OSError, http.client.HTTPException)):
        urllib.request.urlopen(server.base.replace("https", "http", 1) + "/api/games", timeout=5)

    made = server.api("POST", "/api/rooms", {"game": "werewolf", "name": "Ada"})
    code, token = made["code"], made["token"]
    # Room links keep the scheme the page came with.
    assert server.api("GET", "/api/address")["url"] == f"{server.base}/"
    started = server.api("POST", f"/api/rooms/{code}/start", {"seed": 5}, token=token)
    assert started["room"]["status"] == "live"

    rng = random.Random(5)
    outcome = None
    acted_on = -1
    with connect(server.ws_url, ssl=client, open_timeout=10, max_size=2**22) as ws:
        ws.send(json.dumps({"type": "hello", "v": 3, "room": code, "token": token}))
        end = time.monotonic() + 120
        while outcome is None:
            assert time.monotonic() < end, "the match did not end in two minutes"
            try:
                msg = json.loads(ws.recv(timeout=1))
            except TimeoutError:
                continue
            assert msg["type"] != "error", msg
            if msg["type"] != "view":
                continue
            outcome = msg["outcome"]
            # Ada plays her own actions, and as host the moderator's when she has none.
            options, kind = msg["legal"], "action"
            if not options and msg.get("host_actions"):
                options, kind = msg["host_actions"], "host_action"
            if outcome is None and options and msg["version"] > acted_on:
                acted_on = msg["version"]
                ws.send(
                    json.dumps(
                        {
                            "type": kind,
                            "id": acted_on,
                            "version": acted_on,
                            "action": rng.choice(options),
                        }
                    )
                )
    assert outcome is not None and outcome.get("winners") is not None, outcome
    room = server.api("GET", f"/api/rooms/{code}")
    assert room["status"] == "finished"
    assert f"wolfden is serving at {server.base}/" in server.log()
