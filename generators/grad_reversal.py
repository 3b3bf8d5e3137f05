"""Case generator for grad_reversal (used by `judge generate`).

Interface (see README, "Generating hidden cases"):

* ``FAMILIES``: family name -> ``draw(rng)``, which returns one candidate case as
  ``{"input": {"x": array, "lam": float, "dy": array}, "note": str}``. ``rng`` is a
  ``numpy.random.Generator`` seeded from (seed, family, index); use nothing else as a source of
  randomness.
* ``ALTERNATIVES``: name -> ``compute(inputs, probe)``, a legitimate alternative float
  computation of the expected outputs in NumPy. A candidate on which any of them disagrees
  with the reference (beyond the tolerance) is ambiguous and is rejected.

lam is 0 only in the written case that needs it (a branch on lam == 0 that writes dx without
a backward rule is refused there; an honest rule that special-cases it returns zeros the judge
sees it return), and 1 only in the written case that needs it (a rule that forgets lam passes
there).
Values are rounded to a few decimal digits so that the spec stays short to read.

This module is loaded into the judge process: it may import only NumPy, ml_dtypes and the
pure standard-library modules listed in ``judge/author/generate.py``, never JAX.
"""

import numpy as np

F32 = np.float32
# Each (lam, shape) is a program a worker traces for every submission graded, so the cases draw
# them from a short list: the examples' and the written cases' own, and three of 256 entries
# (the largest x) with an ordinary lam, a large one and a small one. lam = 1 is left to the one
# written case that needs it (a rule that forgets lam would pass there).
SMALL_1D = [(0.5, (3,)), (0.1, (2,))]
SMALL_2D = [(2.0, (2, 2)), (0.25, (3, 1))]
LARGE = [(0.75, (256,)), (123.456, (4, 64)), (1e-4, (1, 256))]
SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.5, -2.0, 1000.0, -0.001]


def _pick(rng, options):
    return options[int(rng.integers(len(options)))]


def _shape(rng, size, ndim):
    if ndim == 1:
        return (size,)
    rows = _pick(rng, [r for r in range(1, size + 1) if size % r == 0])
    return (rows, size // rows)


def _values(rng, shape, scale=1.0, digits=3, special=0.1):
    """Normal values of the given scale, rounded to ``digits`` decimals, with a few special
    entries (zeros of both signs, exact powers of two)."""
    raw = np.round(rng.normal(size=shape) * scale, digits)
    mask = rng.random(shape) < special
    picks = np.array([_pick(rng, SPECIAL) for _ in range(int(mask.sum()))], np.float64)
    raw[mask] = picks
    return raw.astype(F32)


def _case(rng, shape, lam, note, x_scale=1.0, dy_scale=1.0, digits=3):
    x = _values(rng, shape, x_scale, digits)
    dy = _values(rng, shape, dy_scale, digits)
    if not dy.any():                       # an all-zero cotangent hides the rule's factor
        dy.flat[0] = F32(1.5)
    return {"input": {"x": x, "lam": float(lam), "dy": dy},
            "note": f"{note}; lam {lam:g}, shape {shape}"}


def vectors(rng):
    """1-D x: a few entries, or 256."""
    lam, shape = _pick(rng, SMALL_1D + LARGE[:1])
    return _case(rng, shape, lam, "1-D")


def matrices(rng):
    """2-D x: a 2 x 2 matrix, a column, or 256 entries in 4 x 64 or 1 x 256."""
    lam, shape = _pick(rng, SMALL_2D + LARGE[1:])
    return _case(rng, shape, lam, "2-D")


def extreme_lam(rng):
    """A large lam (123.456), a small one (1e-4), or one with no exact float32 (0.1)."""
    lam, shape = _pick(rng, [LARGE[1], LARGE[2], SMALL_1D[1]])
    return _case(rng, shape, lam, "extreme lam")


def magnitudes(rng):
    """x and dy of very different magnitudes (1e-20 .. 1e20), far from overflow with lam."""
    x_scale = 10.0 ** float(rng.integers(-20, 21))
    dy_scale = 10.0 ** float(rng.integers(-20, 21))
    lam, shape = _pick(rng, SMALL_1D + LARGE[:1])
    case = _case(rng, shape, lam, "wide magnitudes", x_scale, dy_scale, digits=40)
    case["note"] += f", |x| ~ {x_scale:g}, |dy| ~ {dy_scale:g}"
    return case


FAMILIES = {"vectors": vectors, "matrices": matrices, "extreme_lam": extreme_lam,
            "magnitudes": magnitudes}


def float64_product(inputs, probe):
    """-lam * dy in float64, rounded once to float32."""
    dy = np.asarray(inputs["dy"], np.float64)
    return {"y": np.asarray(inputs["x"]), "dx": (-float(inputs["lam"]) * dy).astype(F32)}


def float32_lam_first(inputs, probe):
    """lam rounded to float32 first, then dy * lam negated, all in float32."""
    dy = np.asarray(inputs["dy"], F32)
    return {"y": np.asarray(inputs["x"]), "dx": -(dy * F32(inputs["lam"]))}


ALTERNATIVES = {"float64_product": float64_product, "float32_lam_first": float32_lam_first}
