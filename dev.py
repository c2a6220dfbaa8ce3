#!/usr/bin/env python3
"""Set up wolfden in a local virtual environment and run it or its tests.

    python3 dev.py serve --lan   # set up, then serve phones on your Wi-Fi (the main job)
    python3 dev.py serve     # the same, but only this computer can open it
    python3 dev.py test      # set up, then run lint, type checks and every test
    python3 dev.py test --quick   # the same with 100 conformance playouts and no browsers
    python3 dev.py setup     # only set up

Needs nothing but Python 3.11+. The environment lives in .venv and is refreshed when
pyproject.toml changes.
"""

from __future__ import annotations

import glob
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


# The browsers the tests drive (tests/web: Chromium via Playwright; tests/browsers: Firefox ESR
# over WebDriver BiDi and WebKitGTK, the engine of Safari, through WebKitWebDriver on Xvfb).
BROWSER_PACKAGES = {
    "chromium": "/usr/bin/chromium",
    "firefox-esr": "/usr/bin/firefox-esr",
    "webkit2gtk-driver": "/usr/bin/WebKitWebDriver",
    "xvfb": "/usr/bin/Xvfb",
}
# The servers the storage and several-node tests start (tests/services.py): PostgreSQL, Redis.
SERVICE_PACKAGES = {
    "postgresql": "/usr/lib/postgresql/*/bin/initdb",
    "redis-server": "/usr/bin/redis-server",
}
TEST_PACKAGES = {**BROWSER_PACKAGES, **SERVICE_PACKAGES}


def installed(pattern: str) -> bool:
    return bool(glob.glob(pattern))


def can_install_packages() -> bool:
    return bool(shutil.which("apt-get")) and hasattr(os, "geteuid") and os.geteuid() == 0


def ensure_test_packages() -> None:
    """Install the browsers and servers the tests drive when they are missing and we are root
    with apt-get.

    A browser or server that cannot be installed makes its tests skip, naming the package (or
    fail, when WOLFDEN_REQUIRE_BROWSERS=1 or WOLFDEN_REQUIRE_SERVICES=1); a failed package does
    not keep the others from being installed.
    """
    missing = [pkg for pkg, path in TEST_PACKAGES.items() if not installed(path)]
    if not missing or not shutil.which("apt-get"):
        return
    if not can_install_packages():
        say(
            f"{', '.join(missing)} missing, so the tests that need them will be skipped "
            f"(apt-get install {' '.join(missing)})"
        )
        return
    say(f"installing {', '.join(missing)} for the tests")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    if run("apt-get", "update", check=False, env=env) != 0:
        say("apt-get update failed; trying the packages already known")
    if run("apt-get", "install", "-y", *missing, check=False, env=env) == 0:
        return
    # One package that cannot be had must not keep the others out: try them one by one.
    for pkg in missing if len(missing) > 1 else []:
        run("apt-get", "install", "-y", pkg, check=False, env=env)
    for pkg in missing:
        if not installed(TEST_PACKAGES[pkg]):
            say(f"{pkg} could not be installed, so the tests that need it cannot run")


QUICK_SKIPS = ("tests/web", "tests/browsers", "tests/wordlists/test_browser.py")
"""What ``test --quick`` leaves out: every test that drives a browser."""


def test(args: list[str]) -> int:
    quick = "--quick" in args
    args = [a for a in args if a != "--quick"]
    setup()
    say("ruff")
    if run(BIN / "ruff", "check", "src", "tests", check=False):
        return 1
    say("mypy (strict on engine and games)")
    if run(BIN / "mypy", check=False):
        return 1
    ensure_test_packages()
    say("pytest")
    env = dict(os.environ)
    if can_install_packages():
        # As root with apt-get (as in CI) the browsers and servers were ours to install: a test
        # whose browser or server is still missing fails instead of skipping. Set the variables
        # to 0 to allow it.
        env.setdefault("WOLFDEN_REQUIRE_BROWSERS", "1")
        env.setdefault("WOLFDEN_REQUIRE_SERVICES", "1")
    options = ["--durations=10"]
    if quick:
        # The quick suite for development: 100 conformance playouts per game, no browsers.
        env["WOLFDEN_PLAYOUTS"] = "100"
        options += [f"--ignore={path}" for path in QUICK_SKIPS]
    if not any(a == "-n" or a.startswith("-n") for a in args):
        # Two test processes per core: much of the suite waits on browsers, servers and
        # subprocesses rather than computing, so a core per process would leave them idle.
        options += ["-n", str(min(2 * (os.cpu_count() or 1), 8))]
    if not any(a.startswith("--dist") for a in args):
        # Each process starts with an equal share of the tests and one that runs out takes half
        # of what another still has queued, so a long test near the end of a queue does not
        # keep one process busy while the others wait.
        options += ["--dist", "worksteal"]
    code = run(PY, "-m", "pytest", *options, *args, check=False, env=env)
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
        # The server names the command to run again when phones cannot reach it: this one.
        env = dict(os.environ, WOLFDEN_SERVE_COMMAND="python3 dev.py serve")
        return run(BIN / "wolfden", "serve", *argv[1:], check=False, env=env)
    print(__doc__)
    return 0 if command in ("help", "-h", "--help") else 2


if __name__ == "__main__":
    sys.exit(main())
