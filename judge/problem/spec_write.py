"""Appending hidden cases to a spec as text, atomically.

``append_hidden`` inserts new list items after the last item of the spec's top-level ``hidden:``
block, located with ``yaml.compose`` marks. The rest of the text, comments included, is kept
byte for byte; the YAML is never re-dumped. Before the rename (``judge.atomic.write_text``) the
new text is loaded as the spec loader does, and every old case must still be there, unchanged and
in order; an interruption at any point leaves the old file as it was.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from judge.problem import spec
from judge.atomic import read_exact
from judge.atomic import write_text as atomic_write
from judge.errors import JudgeError


def last_end(node) -> int:
    """Index just past the last character of a node's own text."""
    if isinstance(node, yaml.MappingNode) and not node.flow_style and node.value:
        return last_end(node.value[-1][1])
    if isinstance(node, yaml.SequenceNode) and not node.flow_style and node.value:
        return last_end(node.value[-1])
    return node.end_mark.index


def after_line(text: str, index: int) -> tuple[str, int]:
    """The position just after the line holding ``index`` (adding a final newline if needed)."""
    if index > 0 and text[index - 1] == "\n":
        return text, index
    end = text.find("\n", index)
    if end < 0:
        text += "\r\n" if "\r\n" in text else "\n"
        end = len(text) - 1
    return text, end + 1


def _reindent(items: str, indent: str) -> str:
    """``items`` are list items written at an indent of two spaces."""
    return "".join(indent + line[2:] if line.startswith("  ") else line
                   for line in items.splitlines(keepends=True))


def insert_hidden(text: str, items: str, path: Path) -> str:
    """``text`` with ``items`` (list items at an indent of two spaces) appended to ``hidden:``."""
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        raise JudgeError(f"{path}: cannot parse: {exc}") from None
    if not isinstance(root, yaml.MappingNode):
        raise JudgeError(f"{path}: the spec is not a YAML mapping")
    newline = "\r\n" if "\r\n" in text else "\n"
    found = next(((k, v) for k, v in root.value if k.value == "hidden"), None)
    if found is None:
        text, at = after_line(text, len(text))
        block = "hidden:\n" + items
        return text[:at] + block.replace("\n", newline) + text[at:]
    key, value = found
    if isinstance(value, yaml.SequenceNode) and not value.flow_style and value.value:
        first = value.value[0].start_mark
        line_start = text.rfind("\n", 0, first.index) + 1
        indent = " " * (text.index("-", line_start) - line_start)
        text, at = after_line(text, last_end(value))
        return text[:at] + _reindent(items, indent).replace("\n", newline) + text[at:]
    empty = (isinstance(value, yaml.ScalarNode) and value.tag == "tag:yaml.org,2002:null") or \
            (isinstance(value, yaml.SequenceNode) and not value.value)
    if not empty:
        raise JudgeError(f"{path}: line {key.start_mark.line + 1}: 'hidden' must be a block list "
                         f"(one '- name: ...' item per case) to append to it")
    text = text[:value.start_mark.index] + text[value.end_mark.index:]
    text, at = after_line(text, key.end_mark.index)
    return text[:at] + items.replace("\n", newline) + text[at:]


def check_appended(path: Path, old_text: str, new_text: str, new_names: list[str]) -> None:
    """The new spec loads and validates as ``spec.load`` would, keeps every old key and case
    unchanged and in order, and ends with exactly the new cases. Raise JudgeError otherwise."""
    data = load_checked(path, new_text, "the new text")
    old = yaml.safe_load(old_text)
    old_hidden, new_hidden = old.get("hidden") or [], data.get("hidden") or []
    rest = lambda d: {k: v for k, v in d.items() if k != "hidden"}  # noqa: E731
    # repr compares floats exactly and NaN equal to NaN
    if repr(rest(old)) != repr(rest(data)) or repr(new_hidden[:len(old_hidden)]) != repr(old_hidden):
        raise JudgeError(f"{path}: appending would change existing content; nothing written")
    if [c.get("name") for c in new_hidden[len(old_hidden):]] != list(new_names):
        raise JudgeError(f"{path}: the appended cases did not come out as written; nothing written")


def append_hidden(path: Path, items: str, new_names: list[str]) -> str:
    """Append ``items`` to the spec's hidden cases atomically; return the new text."""
    path = Path(path)
    old = read_exact(path)
    new = insert_hidden(old, items, path)
    atomic_write(path, new, verify=lambda on_disk: check_appended(path, old, on_disk, new_names),
                 unchanged=old)
    return new


def load_checked(path: Path, text: str, what: str) -> dict:
    """Parse ``text`` (a rewrite of the spec at ``path``) and build it as ``spec.load`` would;
    return its data. Raise JudgeError naming ``what`` and the first fault otherwise."""
    try:
        data, nodes = yaml.safe_load(text), yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        raise JudgeError(f"{path}: {what} does not parse ({exc}); nothing written") from None
    errors = spec.schema_errors(data, nodes)
    if errors:
        where, line, message = errors[0]
        raise JudgeError(f"{path}: {what} breaks the schema at {where} (line {line}): "
                         f"{message}; nothing written")
    spec.build(data, path, nodes)
    return data
