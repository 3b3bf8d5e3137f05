"""Writing cases as YAML text: exact, compact, and readable by the spec loader.

Floats are written as the shortest decimal that reads back to the same value in the array's
dtype, always with a decimal point or exponent so YAML reads them as floats; -0.0, NaN and the
infinities keep their identity (``-0.0``, ``.nan``, ``.inf``, ``-.inf``).
"""

from __future__ import annotations

import json
import re

import numpy as np


def format_float(value) -> str:
    v = value if getattr(getattr(value, "dtype", None), "kind", "") in ("f", "V") else np.float64(value)
    if np.isnan(v):
        return ".nan"
    if np.isinf(v):
        return ".inf" if v > 0 else "-.inf"
    if v == 0:
        return "-0.0" if np.signbit(v) else "0.0"
    if v.dtype.kind == "V":  # bfloat16: the shortest text that reads back to it
        return _yaml_float(repr(float(_shortest_bfloat16(v))))
    magnitude = abs(float(v))
    if 1e-4 <= magnitude < 1e16:
        return np.format_float_positional(v, unique=True, trim="0")
    return np.format_float_scientific(v, unique=True, trim="0")


def short(value):
    """An array entry as a Python number for people to read: a float32, float16 or bfloat16
    value as the float whose repr is the shortest decimal that reads back to it in its own dtype
    (``0.3``, not ``0.30000001192092896``); other values as ``.item()`` gives them."""
    v = np.asarray(value)[()]
    if v.dtype.kind == "V":  # bfloat16 (ml_dtypes): NumPy has no shortest repr for it
        return float(_shortest_bfloat16(v)) if np.isfinite(np.float32(v)) else float(np.float32(v))
    if v.dtype.kind != "f" or v.dtype.itemsize >= 8 or not np.isfinite(v):
        return v.item()
    return float(np.format_float_positional(v, unique=True))


def _yaml_float(text: str) -> str:
    """``text`` with a decimal point in its mantissa, as YAML needs to read a float."""
    mantissa, e, exponent = text.partition("e")
    return (mantissa if "." in mantissa else mantissa + ".0") + (e + exponent)


def _shortest_bfloat16(v) -> str:
    """The shortest decimal text that reads back to the bfloat16 ``v`` (``0.3``, not
    ``0.30078125``)."""
    wide = float(np.float32(v))
    for digits in range(1, 10):
        text = f"{wide:.{digits}g}"
        if np.asarray(float(text), dtype=v.dtype) == v:
            return text
    return repr(wide)


def plain_list(arr: np.ndarray):
    """``arr.tolist()`` with every entry through ``short``."""
    if arr.ndim == 0:
        return short(arr)
    return [plain_list(a) for a in arr]


#: Plain YAML scalars that read back as something else than the text (booleans, null).
_SPECIAL_KEYS = {"true", "false", "yes", "no", "on", "off", "null", "~"}


def format_key(key) -> str:
    """A mapping key as YAML reads it back as the same text: a name as it is, anything else
    (a tree's key with spaces, digits first, ``true``...) quoted."""
    key = str(key)
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key) and key.lower() not in _SPECIAL_KEYS:
        return key
    return json.dumps(key)


def format_value(value) -> str:
    """A YAML flow-style rendering of a case value (array, number or dict of them, nested)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{format_key(k)}: {format_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, np.ndarray):
        if value.dtype.kind in "fV":
            return _nested(value, format_float)
        return _nested(value, lambda v: json.dumps(v.item()))
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return format_float(value)
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    return json.dumps(value)


def _nested(arr: np.ndarray, fmt) -> str:
    if arr.ndim == 0:
        return fmt(arr[()])
    return "[" + ", ".join(_nested(a, fmt) for a in arr) + "]"


def format_input(inputs: dict, default_dtypes: dict) -> str:
    """Inputs, with arrays whose dtype is not the parameter's default written as {dtype, data}."""
    parts = []
    for name, v in inputs.items():
        text = format_value(v)
        if isinstance(v, np.ndarray) and str(v.dtype) != default_dtypes.get(name, str(v.dtype)):
            text = f"{{dtype: {v.dtype}, data: {text}}}"
        parts.append(f"{name}: {text}")
    return "{" + ", ".join(parts) + "}"


def case_yaml(case: dict, indent: str = "  ") -> str:
    """One list item. ``case`` holds name, note/explanation, family, seed, input (already formatted
    by ``format_input``), optionally probe (already formatted by ``format_value``) and expected
    (a value)."""
    lines = [f"{indent}- name: {case['name']}"]
    for key in ("note", "explanation", "family"):
        if case.get(key):
            lines.append(f"{indent}  {key}: {json.dumps(case[key])}")
    if case.get("seed") is not None:
        lines.append(f"{indent}  seed: {int(case['seed'])}")
    lines.append(f"{indent}  input: {case['input']}")
    if case.get("probe"):
        lines.append(f"{indent}  probe: {case['probe']}")
    lines.append(f"{indent}  expected: {format_value(case['expected'])}")
    return "\n".join(lines) + "\n"
