"""Run the ``paiju`` command in-process, as the console script does, for CLI tests."""

from __future__ import annotations

import pytest

from paiju.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``paiju ARGS``: (exit status, stdout, stderr)."""
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err
