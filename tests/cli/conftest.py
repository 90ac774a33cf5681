"""Fixtures of the student CLI's tests (cli/warpdrill_cli, importable through pytest.ini's pythonpath)."""
from __future__ import annotations

import io

import pytest


@pytest.fixture(autouse=True)
def config_home(tmp_path, monkeypatch):
    """Each test keeps its login in its own folder, never in the real ~/.config/warpdrill."""
    folder = tmp_path / "config" / "warpdrill"
    monkeypatch.setenv("WARPDRILL_CONFIG_DIR", str(folder))
    return folder


class Run:
    """The result of one `warpdrill` command run in-process: exit code, stdout, stderr."""

    def __init__(self, code: int, out: str, err: str):
        self.code, self.out, self.err = code, out, err

    def __repr__(self):
        return f"Run(code={self.code}, out={self.out!r}, err={self.err!r})"


@pytest.fixture
def warpdrill():
    """run(*argv, stdin="", lang="en", password="...") -> Run: the command as a student types it."""
    from warpdrill_cli.main import CLI, main

    def run(*argv: str, stdin: str = "", lang: str = "en", password: str = "pass-1234-word") -> Run:
        out, err = io.StringIO(), io.StringIO()
        cli = CLI(stdout=out, stderr=err, stdin=io.StringIO(stdin), lang=lang,
                  ask_password=lambda prompt: password, sleep=lambda s: None)
        code = main(list(argv), cli=cli)
        return Run(code, out.getvalue(), err.getvalue())

    return run
