"""The project's two quick-start commands, runnable with nothing but Python 3.11+.

    python3 tasks.py start    # set up .venv, then run the main job
    python3 tasks.py test     # set up .venv, then ruff, mypy --strict and pytest

Set-up is idempotent: it creates ``.venv`` beside this file when missing and installs the
package with its pinned development dependencies when ``pyproject.toml`` changed since
the last install.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
STAMP = VENV / ".paiju-installed"


def run(*args: str | Path) -> None:
    print("+", " ".join(str(a) for a in args), flush=True)
    subprocess.run([str(a) for a in args], cwd=ROOT, check=True)


def setup() -> None:
    if not (BIN / "python").exists():
        venv.EnvBuilder(with_pip=True).create(VENV)
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if STAMP.exists() and STAMP.read_text() == wanted:
        return
    run(BIN / "python", "-m", "pip", "install", "-q", "--upgrade", "pip")
    run(BIN / "python", "-m", "pip", "install", "-q", "-e", ".[dev]")
    STAMP.write_text(wanted)


def start(extra: list[str]) -> None:
    setup()
    args = extra or ["serve"]
    os.execv(BIN / "paiju", [str(BIN / "paiju"), *args])


def test(extra: list[str]) -> None:
    setup()
    paths = [p for p in ("src", "tests", "bench", "examples", "tasks.py") if (ROOT / p).exists()]
    run(BIN / "ruff", "check", *paths)
    run(BIN / "ruff", "format", "--check", *paths)
    run(BIN / "mypy", "--strict", "-p", "paiju")
    run(BIN / "python", "-m", "pytest", *extra)


def main() -> None:
    if sys.version_info < (3, 11):  # noqa: UP036 - this file runs before the venv exists
        sys.exit(f"paiju needs Python 3.11 or newer, this is {sys.version.split()[0]}")
    commands = {"start": start, "test": test, "setup": lambda extra: setup()}
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        sys.exit(f"usage: python3 tasks.py {{{'|'.join(commands)}}} [args...]")
    try:
        commands[sys.argv[1]](sys.argv[2:])
    except subprocess.CalledProcessError as exc:
        sys.exit(exc.returncode)


if __name__ == "__main__":
    main()
