"""What a student reads instead of a hidden test case's name.

A test case's name is the package author's: "million-and-three" (vector-add-tail, n = 1048579) or
"n_1000003" says the size a hidden test uses, which is what hiding it keeps back. Students see a hidden
test as its place in the list, "#3"; the name is staff-only, like the hidden test's inputs, time and
details (grader.serializers.public_result). Every place a student reads the name goes through here: the
test's row, the findings made on it (and on its check pass: "NAME (check)"), and the messages that name
it (a summary, "Skipped because test NAME hung").

Plain Python; nothing of Django's.
"""
from __future__ import annotations

from collections.abc import Iterable

from .messages import Message

CHECK_SUFFIX = " (check)"


def aliases(tests: Iterable) -> dict[str, str]:
    """{hidden test's name: "#k"} for `tests` (TestResult or TestCaseSpec: `.name`, `.sample`), k being
    the test's 1-based place among all of them (the row a student sees it in)."""
    return {t.name: f"#{k}" for k, t in enumerate(tests, start=1) if not t.sample}


def renamed_test(name: str | None, names: dict[str, str]) -> str | None:
    """`name` (a test's, or a check pass's "NAME (check)") with a hidden test's name replaced by its alias."""
    if not name or not names:
        return name
    if name in names:
        return names[name]
    base = name.removesuffix(CHECK_SUFFIX)
    return names[base] + CHECK_SUFFIX if base != name and base in names else name


def renamed(message: Message, names: dict[str, str]) -> Message:
    """`message` with every parameter that is a hidden test's name (also inside nested messages and lists)
    replaced by its alias. Text we cannot name (verbatim) is left as it is."""
    if not names or not message.code:
        return message

    def swap(value):
        if isinstance(value, Message):
            return renamed(value, names)
        if isinstance(value, list):
            return [swap(v) for v in value]
        if isinstance(value, str):
            return renamed_test(value, names)
        return value

    return Message(message.code, {key: swap(value) for key, value in message.params.items()})


def renamed_item(item: dict, names: dict[str, str]) -> dict:
    """A result part's dict (a test row: "name"; a finding: "test"; either: "message" as {"code", "params"})
    with the hidden tests' names replaced, in place; returned."""
    if not names:
        return item
    if "name" in item:
        item["name"] = renamed_test(item["name"], names)
    if "test" in item:
        item["test"] = renamed_test(item["test"], names)
    if isinstance(item.get("message"), dict) and item["message"].get("code"):
        item["message"] = renamed(Message.from_dict(item["message"]), names).to_dict()
    return item
