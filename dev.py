#!/usr/bin/env python3
"""Set up wolfden in a local virtual environment and run it or its tests.

    python3 dev.py serve     # set up, then start the server (the main job)
    python3 dev.py test      # set up, then run lint, type checks and every test
    python3 dev.py setup     # only set up

Needs nothing but Python 3.11+. The environment lives in .venv and is refreshed when
pyproject.toml changes.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")
EXTRAS = "dev"


def say(text: str) -> None:
    print(f"[dev] {text}", flush=True)


def run(*cmd: str | Path, check: bool = True, env: dict[str, str] | None = None) -> int:
    return subprocess.run([str(c) for c in cmd], cwd=ROOT, check=check, env=env).returncode


def setup() -> None:
    if sys.version_info < (3, 11):
        sys.exit("wolfden needs Python 3.11 or newer")
    if not PY.exists():
        say("creating .venv")
        venv.EnvBuilder(with_pip=True).create(VENV)
    stamp = VENV / ".wolfden-installed"
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if not stamp.exists() or stamp.read_text() != digest:
        say("installing wolfden and its dependencies into .venv")
        run(PY, "-m", "pip", "install", "--quiet", "--upgrade", "pip")
        run(PY, "-m", "pip", "install", "--quiet", "-e", f".[{EXTRAS}]")
        stamp.write_text(digest)


def ensure_chromium() -> None:
    """The browser tests drive Debian's chromium: install it when it is missing and we are root."""
    if Path("/usr/bin/chromium").exists() or not shutil.which("apt-get"):
        return
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        say("chromium is missing, so the browser tests will be skipped (apt-get install chromium)")
        return
    say("installing chromium for the browser tests")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    if run("apt-get", "update", check=False, env=env) == 0:
        run("apt-get", "install", "-y", "chromium", check=False, env=env)


def test(args: list[str]) -> int:
    setup()
    say("ruff")
    if run(BIN / "ruff", "check", "src", "tests", check=False):
        return 1
    say("mypy (strict on engine and games)")
    if run(BIN / "mypy", check=False):
        return 1
    ensure_chromium()
    say("pytest")
    code = run(PY, "-m", "pytest", *args, check=False)
    return 0 if code == 0 else 1


def main() -> int:
    argv = sys.argv[1:]
    command = argv[0] if argv else "help"
    if command == "setup":
        setup()
        return 0
    if command == "test":
        return test(argv[1:])
    if command in ("serve", "play"):
        setup()
        if command == "play":
            args = argv[1:] or ["werewolf", "--players", "7", "--human", "1"]
            return run(BIN / "wolfden", "play", *args, check=False)
        return run(BIN / "wolfden", "serve", *argv[1:], check=False)
    print(__doc__)
    return 0 if command in ("help", "-h", "--help") else 2


if __name__ == "__main__":
    sys.exit(main())
