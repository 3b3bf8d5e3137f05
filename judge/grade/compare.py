"""Comparisons of one output against its expected value: small pure functions, no I/O.

Each returns ``None`` when the output is acceptable, or a ``Mismatch`` with a stable reason code,
a message, and (for value mismatches) the differing positions.
"""

from __future__ import annotations

from dataclasses import dataclass, field as dc_field

import numpy as np

from judge.problem.casefile import short
from judge.worker.protocol import Other

MAX_POSITIONS = 10


@dataclass(frozen=True)
class Mismatch:
    reason: str            # a WA reason code from verdicts.REASONS
    message: str
    field: str | None = None
    positions: tuple = dc_field(default_factory=tuple)  # ((index tuple, got, expected), ...)


def _type_name(value) -> str:
    if isinstance(value, np.ndarray):
        return "array"
    if isinstance(value, Other):
        return value.type_name
    return type(value).__name__


#: Keys a message lists at most (an output may have thousands: the message stays short).
FEW = 8


def _few(keys: list[str]) -> str:
    """At most FEW keys, each cut to 40 characters, and how many more there are."""
    shown = [k if len(k) <= 40 else k[:40] + "..." for k in keys[:FEW]]
    return f"{shown}" + (f" and {len(keys) - FEW} more" if len(keys) > FEW else "")


def describe(value) -> str:
    """What a worker value is, in a few words: its type, and an array's dtype and shape (never
    its entries, which could be millions)."""
    if isinstance(value, np.ndarray):
        return f"an array {value.dtype}{list(value.shape)}"
    if isinstance(value, (dict, list, tuple)):
        return f"a {type(value).__name__} of {len(value)}"
    return _type_name(value)


def check_structure(output, kind: str, names: list[str]) -> Mismatch | None:
    """The output's container: a dict with exactly the field names, or one array."""
    if kind == "array":
        if not isinstance(output, np.ndarray):
            return Mismatch("wrong_type", f"expected an array, got {_type_name(output)}")
        return None
    if not isinstance(output, dict):
        return Mismatch("wrong_type", f"expected a dict with keys {names}, got {_type_name(output)}")
    if sorted(output) != sorted(names):
        missing = sorted(set(names) - set(output))
        extra = sorted(set(output) - set(names))
        parts = ([f"missing {missing}"] if missing else []) + ([f"unexpected {_few(extra)}"] if extra else [])
        return Mismatch("wrong_keys", f"dict keys {_few(sorted(output))}: {'; '.join(parts)}")
    for name in names:
        if not isinstance(output[name], np.ndarray):
            return Mismatch("wrong_type", f"{name!r} should be an array, got {_type_name(output[name])}",
                            field=name)
    return None


def leaves_of(value, slots, root: str | None = None) -> tuple[dict, Mismatch | None]:
    """The leaves of a returned value (nested dicts) at the slots' ``returned`` paths, by the
    slots' keys (``judge.problem.layout``); a Mismatch (``wrong_type``, ``wrong_keys``) naming
    the first mapping whose keys, or the first leaf whose type, are not what the slots say.
    ``root`` names the whole value in messages (None: its keys are names of their own)."""
    from judge.problem.layout import keys_at
    from judge.problem.model import leaf_name

    def name(path):
        if root is None:
            return leaf_name(str(path[0]), path[1:]) if path else "the output"
        return leaf_name(root, path)

    def walk(node, prefix):
        keys = keys_at(slots, prefix, "returned")
        if not keys:
            return None
        if not isinstance(node, dict):
            return Mismatch("wrong_type", f"{name(prefix)}: expected a dict with keys {_few(keys)}, "
                                          f"got {_type_name(node)}")
        if sorted(map(str, node)) != sorted(map(str, keys)):
            missing = [k for k in keys if k not in node]
            extra = [k for k in node if k not in keys]
            parts = ([f"missing {_few(missing)}"] if missing else []) + \
                    ([f"unexpected {_few(extra)}"] if extra else [])
            return Mismatch("wrong_keys", f"{name(prefix)}: dict keys {_few(list(node))}: "
                                          f"{'; '.join(parts)}")
        for key in keys:
            found = walk(node[key], prefix + (key,))
            if found:
                return found
        return None

    problem = walk(value, ())
    if problem:
        return {}, problem
    flat = {}
    for s in slots:
        leaf = value
        for step in s.returned:
            leaf = leaf[step]
        if not isinstance(leaf, np.ndarray):
            return {}, Mismatch("wrong_type", f"{s.key} should be an array, got {_type_name(leaf)}",
                                field=s.key)
        flat[s.key] = leaf
    return flat, None


def check_shape(got: np.ndarray, expected: np.ndarray, name: str) -> Mismatch | None:
    if got.shape != expected.shape:
        return Mismatch("wrong_shape", f"{name}: shape {got.shape}, expected {expected.shape}", field=name)
    return None


def check_dtype(got: np.ndarray, expected: np.ndarray, name: str) -> Mismatch | None:
    if got.dtype != expected.dtype:
        return Mismatch("wrong_dtype", f"{name}: dtype {got.dtype}, expected {expected.dtype}", field=name)
    return None


def close_mask(got: np.ndarray, expected: np.ndarray, rtol: float, atol: float,
               signed_zero: bool = False) -> np.ndarray:
    """Elementwise: |got - expected| <= atol + rtol*|expected|, with NaN matching only NaN,
    an infinity matching only the same infinity, and -0.0 vs 0.0 matching unless ``signed_zero``."""
    g = got.astype(np.float64)
    e = expected.astype(np.float64)
    both_nan = np.isnan(g) & np.isnan(e)
    inf = np.isinf(g) | np.isinf(e)
    with np.errstate(invalid="ignore", over="ignore"):
        close = np.abs(g - e) <= atol + rtol * np.abs(e)
    close = np.where(inf, g == e, close)
    close = close | both_nan
    if signed_zero:
        zeros = (g == 0) & (e == 0)
        close = np.where(zeros, np.signbit(g) == np.signbit(e), close)
    return close


def check_values(got: np.ndarray, expected: np.ndarray, name: str, tolerance: dict) -> Mismatch | None:
    if _same_bits(got, expected) and tolerance.get("rtol", 0.0) >= 0 and tolerance.get("atol", 0.0) >= 0:
        return None  # every entry equal to itself: within any tolerance, NaN for NaN, zero's sign kept
    ok = close_mask(got, expected, tolerance.get("rtol", 0.0), tolerance.get("atol", 0.0),
                    tolerance.get("signed_zero", False))
    if ok.all():
        return None
    bad = np.argwhere(~ok)
    positions = tuple((tuple(int(i) for i in idx), short(got[tuple(idx)]), short(expected[tuple(idx)]))
                      for idx in bad[:MAX_POSITIONS])
    first_idx, first_got, first_exp = positions[0]
    if not first_idx:  # a 0-d array: its one value
        return Mismatch("wrong_value", f"{name}: got {first_got!r}, expected {first_exp!r}",
                        field=name, positions=positions)
    # a tree's leaf: the entry by its whole path, params["w"][1, 2]
    where = (f"{name}[{', '.join(map(str, first_idx))}]" if '["' in name
             else f"[{','.join(map(str, first_idx))}]")
    return Mismatch("wrong_value", f"{name}: {len(bad)} of {ok.size} entries differ; "
                    f"first at {where}: got {first_got!r}, expected {first_exp!r}",
                    field=name, positions=positions)


def _same_bits(got, expected) -> bool:
    """Whether two arrays of one shape and dtype hold the very same bytes."""
    return isinstance(got, np.ndarray) and isinstance(expected, np.ndarray) \
        and got.shape == expected.shape and got.dtype == expected.dtype \
        and got.tobytes() == expected.tobytes()


def check_field(got, expected: np.ndarray, name: str, tolerance: dict) -> Mismatch | None:
    """Shape, then dtype, then values of one output field."""
    return (check_shape(got, expected, name) or check_dtype(got, expected, name)
            or check_values(got, expected, name, tolerance))


def check_form(output, expected: dict, kind: str) -> Mismatch | None:
    """The output's container, keys, shapes and dtypes: what must hold before a rule reads it."""
    names = list(expected)
    problem = check_structure(output, kind, names)
    if problem:
        return problem
    got = {"value": output} if kind == "array" else output
    for name in names:
        problem = check_shape(got[name], expected[name], name) or check_dtype(got[name], expected[name], name)
        if problem:
            return problem
    return None


def check_form_values(output, expected: dict, kind: str, tolerances: dict) -> Mismatch | None:
    """The values of an output whose form ``check_form`` accepted."""
    got = {"value": output} if kind == "array" else output
    for name in expected:
        problem = check_values(got[name], expected[name], name, tolerances[name])
        if problem:
            return problem
    return None


def check_output(output, expected: dict, kind: str, tolerances: dict) -> Mismatch | None:
    """The whole output of one case against its expected fields: its form (container, keys,
    shapes, dtypes of every field), then its values."""
    return (check_form(output, expected, kind)
            or check_form_values(output, expected, kind, tolerances))
