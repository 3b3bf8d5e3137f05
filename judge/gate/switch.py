"""Whether the source gate is on: ``--source-gate on|off``, else ``$JUDGE_SOURCE_GATE``, else on;
and the one-line warning printed when it is off."""

from __future__ import annotations

import os
import sys

from judge.errors import JudgeError

ENV_VAR = "JUDGE_SOURCE_GATE"

UNPROTECTED = ("the submission's source is not checked before it runs, so imports outside the "
               "allowlist, reflection (gc, frames, __globals__, getattr with computed names), "
               "eval/exec and file access reach the worker; only the rules measured while "
               "tracing, the result-channel checks and the sandbox (when there is one) stand in their way")


def requested(value: bool | str | None = None) -> tuple[bool, str]:
    """Whether the gate is on, and where that came from: ``value`` (``True``/``False`` or
    ``"on"``/``"off"``, as ``--source-gate`` gives it), else ``$JUDGE_SOURCE_GATE``, else on.
    Raise JudgeError on another setting."""
    source = "--source-gate"
    if value is None:
        value, source = os.environ.get(ENV_VAR) or "on", ENV_VAR
    if isinstance(value, bool):
        return value, source
    setting = str(value).strip().lower()
    if setting not in ("on", "off"):
        raise JudgeError(f"{source}: unknown source gate setting {value!r} (choose from on, off)")
    return setting == "on", source


def setting(on) -> str:
    """The gate setting as the option spells it: ``on`` or ``off`` (anything else, as read from
    a hand-edited file, shown as it is)."""
    return "on" if on is True else "off" if on is False else repr(on)


def warn_off(source: str = "--source-gate") -> None:
    """The one-line warning of a run without the gate."""
    where = "--source-gate off" if source == "--source-gate" else f"{ENV_VAR}=off"
    print(f"judge: warning: source gate disabled ({where}): {UNPROTECTED}", file=sys.stderr,
          flush=True)
