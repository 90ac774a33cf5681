"""The CLI's words in English and Korean, chosen from the environment like any Unix tool.

`language()` reads WARPDRILL_LANG, then LC_ALL, LC_MESSAGES and LANG (the first one set wins): a value
starting with "ko" (ko_KR.UTF-8) gives Korean, anything else English. The verdict and status labels are
the site's own (problems/templatetags/warpdrill.py and its Korean catalogue), so that the terminal and
the web page say the same thing.
"""
from __future__ import annotations

import json
import os
from importlib import resources

LANGUAGES = ("en", "ko")


def _load_messages() -> dict[str, dict[str, str]]:
    """messages.json (shipped beside this module as package data): its `site` and `cli` tables in one."""
    data = json.loads(resources.files(__package__).joinpath("messages.json").read_text(encoding="utf-8"))
    return {**data["site"], **data["cli"]}


# key -> {language: text}; a text may hold {name} parameters that Translator fills in.
MESSAGES: dict[str, dict[str, str]] = _load_messages()


def language(environ: dict[str, str] | None = None) -> str:
    """"ko" or "en" from WARPDRILL_LANG, LC_ALL, LC_MESSAGES, LANG (the first non-empty one)."""
    env = os.environ if environ is None else environ
    for name in ("WARPDRILL_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            return "ko" if value.lower().startswith("ko") else "en"
    return "en"


class Translator:
    """`t(key, **params)`: the message `key` in `lang`, formatted; an unknown key is returned as it is
    (a verdict or kind this version of the CLI does not know is shown by its name)."""

    def __init__(self, lang: str = "en"):
        self.lang = lang if lang in LANGUAGES else "en"

    def __call__(self, key: str, **params) -> str:
        entry = MESSAGES.get(key)
        if entry is None:
            return key
        return entry[self.lang].format(**params) if params else entry[self.lang]
