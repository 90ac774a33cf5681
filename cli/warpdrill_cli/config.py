"""Where the CLI keeps the site's URL and the API token: ~/.config/warpdrill/config.json.

The folder is `$XDG_CONFIG_HOME/warpdrill` when XDG_CONFIG_HOME is set, and `$WARPDRILL_CONFIG_DIR`
overrides both (the tests use it). The token is a password's equal: the folder is created with mode
0700 and the file written with mode 0600 from its first byte (never world-readable, not even briefly).
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

FILE_NAME = "config.json"


def config_dir() -> Path:
    """The CLI's configuration folder (not created here)."""
    override = os.environ.get("WARPDRILL_CONFIG_DIR")
    if override:
        return Path(override)
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "warpdrill"


@dataclass
class Config:
    """A login: the site's base URL ("https://warpdrill.example.edu") and the user's API token."""

    url: str
    token: str
    username: str = ""


def load() -> Config | None:
    """The stored login, or None when there is none (or the file is not a login this CLI wrote)."""
    path = config_dir() / FILE_NAME
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("url"), str) or not isinstance(data.get("token"), str):
        return None
    return Config(url=data["url"], token=data["token"], username=str(data.get("username", "")))


def save(config: Config) -> Path:
    """Write the login with mode 0600 (its folder 0700) and return the file's path.

    An existing file is replaced atomically (a temporary file in the same folder, then rename), and its
    mode is forced to 0600 even when an older file had looser permissions."""
    folder = config_dir()
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(folder, 0o700)
    path = folder / FILE_NAME
    tmp = folder / f".{FILE_NAME}.{os.getpid()}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)  # the umask cannot loosen it, and an old tmp file is tightened too
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump({"url": config.url, "token": config.token, "username": config.username}, handle, indent=2)
            handle.write("\n")
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path


def clear() -> bool:
    """Forget the stored login; True when there was one."""
    path = config_dir() / FILE_NAME
    try:
        path.unlink()
    except FileNotFoundError:
        return False
    return True
