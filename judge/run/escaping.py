"""Text from a worker made safe to show: every string a submission could have written is escaped
once, on the judge's side (``judge.run.boundary``), before any report sees it."""

from __future__ import annotations

import re

_UNSAFE = "\x00-\x08\x0b-\x1f\x7f-\x9f\u2028-\u202e\u2066-\u2069\u200e\u200f\ud800-\udfff\ufffe\uffff"
_UNSAFE_LINE = re.compile(f"[\t\n{_UNSAFE}]")
_UNSAFE_TEXT = re.compile(f"[{_UNSAFE}]")


_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _escape_char(match: re.Match) -> str:
    char = match.group()
    code = ord(char)
    return _NAMED.get(char) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


def escape(text: str, multiline: bool = False) -> str:
    """``text`` safe for a terminal and for UTF-8: control characters (all of them, or all but
    newline and tab with ``multiline``), line separators, bidirectional controls and lone
    surrogates are written as escapes."""
    if str.isascii(text) and str.isprintable(text):
        return text  # no ASCII control character, tab or newline: nothing to escape (most texts)
    return (_UNSAFE_TEXT if multiline else _UNSAFE_LINE).sub(_escape_char, text)
