"""The custom_vjp functions' outputs moved: how far the worker moves them, and whether a field
moved with them (rule ``custom_vjp_grads`` with ``values``; the worker measures, the judge
decides).

A function's output marker (``instrument``) is ``select_n(|c - factor| >= FAR, t, 0) - (c -
factor)`` with ``c = clamp(0, factor, STILL)``: ``t`` itself at the factors the output and the
scaled output are evaluated with, and, evaluated again with the factor at ``STILL + d`` and at
``-d``, every output of every custom_vjp function replaced by about ``d`` and by ``-d``, the
same number for every application, however often its output was marked; evaluated again with
the factor at ``STILL + δ`` and at ``-δ`` (``near``, below ``FAR``), every output kept and
shifted by ``δ`` and by ``-δ``. ``d`` (``distance``) is a
power of two far above every magnitude of the case (its inputs and its outputs, 2**24 times
the largest of them and of 1), so that the move crosses any clipping range around zero the values are taken through after the
function and no rounding of the output's scale can hide it, while a term of the output times a
tiny coefficient (``1e-30 * out``) stays hidden beside values of the case's size.

The near shifts are small beside the case's magnitudes (``δ`` is 2**-4 of the least power of
two at or above the largest of them), so a term of the output that vanishes at the case and
moves only far from it (``out - clip(out, -b, b)``, ``relu(out - b)``, ``where(|out| > b, out,
q(x))`` for a bound ``b`` above the case's values) stays at both, while a path from the output
moves with it: the field must move at the far moves and at the near ones.

The field must then move at every entry (``first_unmoved``): an entry of the values that is
the same at both moves and at the case is not a function of the function's output there, so a
term of it whose derivative cancels (``out - out``, ``out - out * 1``, ``(out + c) - c - out``,
two applications of the same function subtracted) or rounds away, beside a quantizer applied to
``x`` outside the function, is refused, while a clip or a ``where`` after the function (the
values go from one end of the range to the other) or a ``stop_gradient`` of the whole field
moves. A NaN is no move: a term such as ``0 * exp(out)`` gives one only where the output is
moved out of range. What it cannot tell: a term of the output that vanishes at the case's
values only (``out - x``, where the function is an identity written as a computation, or a
bound that follows each entry, ``out - clip(out, x - e, x + e)``) moves as the output does.
"""

from __future__ import annotations

import math

#: The factors at which a function's output marker moves nothing (``instrument``): ``[0, STILL]``
#: holds 1 and every factor the judge draws for the scaled output (``custom_vjp_grads``).
STILL = 16.0
#: How far above the case's largest magnitude the move is: 2**24, past float32's precision.
ABOVE = 24
#: The largest move, as a power of two (finite in float32 and bfloat16 with room to spare).
LARGEST = 100
#: Where the marker tells the two kinds of move apart: a factor this far or farther outside
#: ``[0, STILL]`` replaces the output (every far move is), a nearer one adds to it.
FAR = 2.0 ** 22
#: How far below the least power of two at or above the case's largest magnitude a near move
#: is: 2**-4 of it, well above float32's and bfloat16's rounding at any value of that size.
BELOW = 4


def _exponent(magnitudes) -> int:
    """The exponent of the least power of two at or above the largest finite one of
    ``magnitudes`` and of 1."""
    top = max([1.0, *(m for m in magnitudes if math.isfinite(m))])
    return max(0, math.ceil(math.log2(top)))


def distance(magnitudes) -> float:
    """The distance ``d`` the functions' outputs are moved by at a case whose finite float
    values have the absolute values ``magnitudes`` (numbers): a power of two, 2**24 times the
    least power of two at or above the largest of them and of 1, at most 2**100."""
    return float(2.0 ** min(LARGEST, ABOVE + _exponent(magnitudes)))


def near(magnitudes) -> float | None:
    """The distance ``δ`` the functions' outputs are shifted by, each kept, at a case whose
    finite float values have the absolute values ``magnitudes``: a power of two, 2**-4 times the
    least power of two at or above the largest of them and of 1; None where that reaches
    ``FAR`` (a case of magnitudes past 2**26, measured by the far moves alone)."""
    step = 2.0 ** (_exponent(magnitudes) - BELOW)
    return step if step < FAR else None


def measure(evaluate, leaves: list, np) -> list | None:
    """The output evaluated (``evaluate(factor)``) at the two factors that move every function's
    output to ``distance`` of the case's ``leaves`` (its inputs and outputs) each way, then at
    the two that shift it by ``near`` each way (the far ones again where there is no near
    distance); None where it could not be (the judge then refuses the values as not
    measured)."""
    magnitudes = []
    for leaf in leaves:
        try:
            array = np.asarray(leaf)
            if array.dtype.kind == "f" and array.size:
                magnitudes.append(float(np.max(np.where(np.isfinite(array), np.abs(array), 0))))
        except Exception:  # noqa: BLE001 - not numbers: no magnitude
            continue
    shifted = near(magnitudes)
    try:
        far = [evaluate(factor) for factor in factors(STILL, distance(magnitudes))]
        return far + (far if shifted is None else [evaluate(f) for f in factors(STILL, shifted)])
    except Exception:  # noqa: BLE001 - a failure of the submission's program: not measured
        return None


def factors(still: float, d: float) -> tuple[float, float]:
    """The two factors that move every function's output by about ``+d`` and ``-d``: the
    marker subtracts what the factor lies outside ``[0, still]`` by (replacing the output by
    it where that is ``FAR`` or more, adding it to the output where less)."""
    return still + d, -d


def first_unmoved(base, plus, minus, excused=None):
    """Index of the first entry of ``base`` (an array: the field at the case) that neither
    ``plus`` nor ``minus`` (the field with the functions' outputs moved each way) changes, or
    that either of them makes NaN, leaving out the entries ``excused`` (a bool array of
    ``base``'s shape, or None); ``()`` where the shapes differ, None where every entry
    moved."""
    import numpy as np

    base, plus, minus = (np.asarray(v) for v in (base, plus, minus))
    if not base.shape == plus.shape == minus.shape:
        return ()

    def nan(a):
        return np.isnan(a) if a.dtype.kind in "fc" else np.zeros(a.shape, bool)

    with np.errstate(invalid="ignore"):
        bad = ((plus == base) & (minus == base)) | nan(plus) | nan(minus)
    if excused is not None:
        bad &= ~np.asarray(excused, bool)
    found = np.argwhere(bad)
    return tuple(int(i) for i in found[0]) if len(found) else None


def first_unscaled(base, scaled, factor: float, max_rules: int = 16):
    """Index of the first entry of ``base`` (an array) whose value in ``scaled`` is not
    ``base * factor**n`` for some n in 1..max_rules, or None if every entry is. Zeros and
    non-finite entries must stay what they were. ``factor`` is a power of two, so honest
    scaling is exact. Every power is compared at once for a small array, one at a time else."""
    import numpy as np

    base, scaled = np.asarray(base), np.asarray(scaled)
    if base.shape != scaled.shape:
        return ()
    wide, powers = base.astype(np.float64), np.array([float(factor) ** n for n in range(1, max_rules + 1)])
    fixed, same = (wide == 0) | ~np.isfinite(wide), scaled.astype(np.float64)
    ok = fixed & ((same == wide) | (np.isnan(wide) & np.isnan(same)))
    with np.errstate(over="ignore", invalid="ignore"):
        for part in ([powers] if base.size <= 4096 else powers[:, None]):  # the same products
            ok |= ~fixed & np.logical_or.reduce(scaled[..., None] == (wide[..., None] * part).astype(base.dtype), -1)
    bad = () if ok.all() else np.argwhere(~ok)
    return tuple(int(i) for i in bad[0]) if len(bad) else None
