"""Every refusal the server can give is documented: a client (and a person reading the
protocol) meets no error code the protocol page does not explain."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_refusal_code_in_the_server_is_in_the_protocol_page() -> None:
    documented = set(
        re.findall(r"^\| `([a-z_]+)` \|", (ROOT / "docs" / "protocol.md").read_text(), re.M)
    )
    raised: dict[str, str] = {}
    for path in sorted((ROOT / "src" / "wolfden" / "server").glob("*.py")):
        for code in re.findall(r'Refused\(\s*"([a-z_]+)"', path.read_text()):
            raised.setdefault(code, path.name)
    assert raised, "the server raises Refused somewhere"
    missing = {code: where for code, where in raised.items() if code not in documented}
    assert not missing, f"refusal codes missing from docs/protocol.md: {missing}"
