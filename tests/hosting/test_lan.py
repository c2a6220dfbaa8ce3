"""The room's link and QR code on a home network: started as the README says, phones can open
them; served to this computer only, the page is told so, with the command that fixes it."""

from __future__ import annotations

import io
import socket
from typing import Any
from urllib.parse import urlsplit

import pytest
import segno
from click.testing import CliRunner

from tests.hosting.conftest import Host, dev_py_runs, readme_first_command
from wolfden.cli import cli
from wolfden.server import address
from wolfden.server.address import lan_address, phone_address, unreachable_host


def qr_of(link: str) -> bytes:
    """The SVG the server makes for ``link`` (the same segno call, so equal bytes mean the
    same encoded text)."""
    buffer = io.BytesIO()
    segno.make(link, error="m").save(
        buffer, kind="svg", border=2, dark="#000", light="#fff", xmldecl=False, omitsize=True
    )
    return buffer.getvalue()


def is_this_machines(host: str) -> bool:
    """Binding to an address works only when it is one of this machine's (nothing is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind((host, 0))
        except OSError:
            return False
    return True


def room_of(server: Host) -> str:
    made = server.api("POST", "/api/rooms", {"game": "werewolf", "name": "Ada"})
    return str(made["code"])


def test_the_readme_starts_the_server_for_phones(monkeypatch: pytest.MonkeyPatch) -> None:
    words = readme_first_command()
    assert words[:3] == ["python3", "dev.py", "serve"], words
    assert "--lan" in words[3:], "the README's first command must serve the local network"
    args, launcher = dev_py_runs(words, monkeypatch)
    assert args == ["serve", *words[3:]]
    assert launcher == "python3 dev.py serve"


def test_started_as_the_readme_says_the_qr_code_links_to_this_machine_on_the_network(
    start: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    if lan_address() is None:
        pytest.skip("this machine has no address on a local network")
    # What the README's first command runs, once dev.py has set up: wolfden serve ARGS, told
    # that dev.py started it; here on a free port with a database of its own.
    args, launcher = dev_py_runs(readme_first_command(), monkeypatch)
    assert args[0] == "serve"
    server = start(*args[1:], listen=(), launcher=launcher)
    code = room_of(server)

    # The host's own browser opened http://127.0.0.1:PORT/; phones get this machine's address.
    phones = server.api("GET", "/api/address")
    url = urlsplit(phones["url"])
    assert phones["reachable"] is True and phones["fix"] is None
    assert url.scheme == "http" and url.port == server.port and url.path == "/"
    assert url.hostname and not unreachable_host(url.hostname), phones
    assert is_this_machines(url.hostname), f"{url.hostname} is not an address of this machine"

    link = f"{phones['url']}#/r/{code}"
    assert server.get(f"/api/rooms/{code}/qr.svg") == qr_of(link)

    # The terminal said the same address, and what listening on the network means.
    log = server.log()
    assert f"http://{url.hostname}:{server.port}/" in log
    assert "Anyone on this network can open the page" in log
    assert "plain HTTP" in log and "Ctrl+C" in log


def test_served_to_this_computer_only_the_link_is_flagged_with_the_fix(start: Any) -> None:
    server = start(launcher="python3 dev.py serve")
    code = room_of(server)
    phones = server.api("GET", "/api/address")
    fix = f"python3 dev.py serve --lan --port {server.port}"
    assert phones == {"url": f"{server.base}/", "reachable": False, "fix": fix}
    # The QR code still encodes the only link there is; the page warns about it.
    assert server.get(f"/api/rooms/{code}/qr.svg") == qr_of(f"{server.base}/#/r/{code}")
    log = server.log()
    assert "only this computer can open it" in log and fix in log


def test_without_dev_py_the_fix_names_wolfden_serve(start: Any) -> None:
    server = start()
    assert server.api("GET", "/api/address")["fix"] == f"wolfden serve --lan --port {server.port}"


def test_a_link_through_a_name_is_kept_and_loopback_is_replaced_only_on_the_network(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(address, "lan_address", lambda: "192.0.2.7")
    # A browser that reached the server through a name or a network address: that is the link.
    for base in ("https://wolfden.example.org/", "http://192.0.2.9:8000/", "http://pc.local/"):
        assert phone_address(base, lan=True) == address.PhoneAddress(base, True)
        assert phone_address(base, lan=False) == address.PhoneAddress(base, True)
    # Through loopback: this machine's network address when it listens there, else flagged.
    for base in ("http://127.0.0.1:8000/", "http://localhost:8000/", "http://[::1]:8000/"):
        assert phone_address(base, lan=True) == address.PhoneAddress("http://192.0.2.7:8000/", True)
        assert phone_address(base, lan=False) == address.PhoneAddress(base, False)
    assert phone_address("https://127.0.0.1/", lan=True).url == "https://192.0.2.7/"


def test_on_the_network_without_an_address_the_link_is_flagged(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(address, "lan_address", lambda: None)
    base = "http://127.0.0.1:8000/"
    assert phone_address(base, lan=True) == address.PhoneAddress(base, False)


def test_the_network_address_is_never_loopback() -> None:
    found = lan_address()
    assert found is None or not unreachable_host(found)
    for host in ("127.0.0.1", "127.8.9.1", "localhost", "LOCALHOST", "::1", "[::1]", "0.0.0.0"):
        assert unreachable_host(host), host
    for host in ("192.168.1.20", "10.0.0.5", "wolfden.example.org", "fe80::1"):
        assert not unreachable_host(host), host


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--lan", "--host", "0.0.0.0"], "give --lan"),
        (["--certfile", "README.md"], "needs both --certfile"),
        (["--certfile", "README.md", "--keyfile", "README.md"], "cannot serve HTTPS"),
    ],
)
def test_contradicting_or_unusable_options_are_refused_before_listening(
    args: list[str], says: str
) -> None:
    result = CliRunner().invoke(cli, ["serve", *args, "--db", "/nonexistent/never.sqlite3"])
    assert result.exit_code == 2, result.output
    assert says in result.output
    assert "Traceback" not in result.output


def test_the_terminal_says_where_phones_go_and_what_the_network_sees(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from wolfden.server.cli import startup_message

    monkeypatch.setattr("wolfden.server.cli.lan_address", lambda: "192.0.2.7")
    plain = startup_message("0.0.0.0", 8000, https=False, lan_command="x")
    assert "http://192.0.2.7:8000/" in plain and "plain HTTP" in plain and "Ctrl+C" in plain
    secure = startup_message("0.0.0.0", 8443, https=True, lan_command="x")
    assert "https://192.0.2.7:8443/" in secure and "plain HTTP" not in secure
    assert "Anyone on this network can open the page" in secure

    monkeypatch.setattr("wolfden.server.cli.lan_address", lambda: None)
    offline = startup_message("0.0.0.0", 8000, https=False, lan_command="x")
    assert "no address on a local network" in offline and "http://127.0.0.1:8000/" in offline

    alone = startup_message(
        "127.0.0.1", 8000, https=False, lan_command="python3 dev.py serve --lan"
    )
    assert "only this computer can open it" in alone
    assert alone.endswith("start: python3 dev.py serve --lan")
