"""Case generator for hvp_tanh (used by `judge generate`).

Interface (see README, "Generating hidden cases"):

* ``FAMILIES``: family name -> ``draw(rng)``, which returns one candidate case as
  ``{"input": {"W": (m, d) array, "x": (d,) array, "v": (d,) array}, "note": str}``. ``rng``
  is a ``numpy.random.Generator`` seeded from (seed, family, index); use nothing else as a
  source of randomness.
* ``ALTERNATIVES``: name -> ``compute(inputs, probe)``, a legitimate alternative float
  computation of H(x) v in NumPy. A candidate on which any of them disagrees with the
  reference (beyond the tolerance) is ambiguous and is rejected.

f(x) = sum(tanh(W @ x)), so H(x) v = W.T @ (s * (W @ v)) with s = -2 t (1 - t**2), t = tanh(W @ x).
W is scaled by 1 / sqrt(d) so that W @ x stays O(1) and the answer is well conditioned for
rtol 1e-4, atol 1e-5. The "wide" family has d > 4 m + 8, so d * d is above the spec's bound
on intermediate sizes (4 * size(W) + 8 * size(x)): a solution that builds the Hessian breaks
the rule on those cases, not only at the probe shape. Values are rounded to a few decimal
digits so that the spec stays short to read.

This module is loaded into the judge process: it may import only NumPy, ml_dtypes and the
pure standard-library modules listed in ``judge/author/generate.py``, never JAX.
"""

import math

import numpy as np

F32 = np.float32


def _pick(rng, options):
    return options[int(rng.integers(len(options)))]


def _round(values, digits=3):
    return np.round(values, digits).astype(F32)


def _case(rng, m, d, note, w_gain=1.0, x_scale=1.0, v_scale=1.0, digits=3):
    """W with entries N(0, w_gain**2 / d), x ~ N(0, x_scale**2), v ~ N(0, v_scale**2)."""
    W = _round(rng.normal(size=(m, d)) * (w_gain / math.sqrt(d)), digits)
    x = _round(rng.normal(size=d) * x_scale, digits)
    v = _round(rng.normal(size=d) * v_scale, digits)
    if not v.any():
        v[0] = F32(1.0)
    return {"input": {"W": W, "x": x, "v": v}, "note": f"{note}; m {m}, d {d}"}


def small(rng):
    """m and d from 1 to 12, in the curved part of tanh."""
    return _case(rng, int(rng.integers(1, 13)), int(rng.integers(1, 13)), "small")


def square(rng):
    """m == d, W not symmetric: swapping W and W.T gives another answer."""
    d = int(rng.integers(2, 9))
    return _case(rng, d, d, "square W")


def wide(rng):
    """d > 4 m + 8 (m = 1 or 2, d from 24 to 256): d * d is above the bound on intermediates."""
    m = _pick(rng, [1, 2, 2])
    d = _pick(rng, [24, 40, 64, 100, 128, 200, 256, int(rng.integers(4 * m + 9, 257))])
    case = _case(rng, m, d, "wide: the Hessian would break the rule")
    case["note"] += f", d*d = {d * d} > bound {4 * m * d + 8 * d}"
    return case


def tall(rng):
    """Many more outputs than inputs: m from 8 to 16, d from 1 to 4."""
    return _case(rng, int(rng.integers(8, 17)), int(rng.integers(1, 5)), "tall")


def saturated(rng):
    """|W @ x| from about 1.5 to 4.5: tanh saturates, the curvature is small but not
    negligible. Each row of W is rescaled (by at most 4) towards its target."""
    m, d = int(rng.integers(1, 9)), int(rng.integers(1, 17))
    case = _case(rng, m, d, "saturated tanh")
    W, x = case["input"]["W"].astype(np.float64), case["input"]["x"].astype(np.float64)
    z = np.abs(W @ x)
    target = rng.uniform(1.5, 4.5, size=m)
    gain = np.minimum(target / np.maximum(z, 1e-3), 4.0)
    case["input"]["W"] = _round(W * gain[:, None])
    return case


def linear_regime(rng):
    """|W @ x| about 0.01: tanh is almost linear, so s = -2 t (1 - t**2) is almost -2 W @ x;
    a second derivative taken as 1 - t**2 is far off here."""
    m, d = int(rng.integers(1, 9)), int(rng.integers(1, 17))
    return _case(rng, m, d, "nearly linear tanh", x_scale=0.01, v_scale=100.0, digits=5)


def large_v(rng):
    """v of size 100 to 10000 (H v is linear in v)."""
    m, d = int(rng.integers(1, 9)), int(rng.integers(2, 33))
    return _case(rng, m, d, "large v", v_scale=_pick(rng, [100.0, 1000.0, 1e4]), digits=1)


FAMILIES = {"small": small, "square": square, "wide": wide, "tall": tall,
            "saturated": saturated, "linear_regime": linear_regime, "large_v": large_v}


def _parts(inputs, dtype):
    W = np.asarray(inputs["W"], dtype)
    x = np.asarray(inputs["x"], dtype)
    v = np.asarray(inputs["v"], dtype)
    return W, x, v


def float64_formula(inputs, probe):
    """W.T @ (s * (W @ v)) in float64, rounded once."""
    W, x, v = _parts(inputs, np.float64)
    t = np.tanh(W @ x)
    return {"value": (W.T @ (-2.0 * t * (1.0 - t * t) * (W @ v))).astype(F32)}


def float32_sech(inputs, probe):
    """The same in float32 through sech**2 = 1 / cosh**2 (rounds differently near saturation)."""
    W, x, v = _parts(inputs, F32)
    z = W @ x
    sech2 = F32(1) / np.cosh(z) ** 2
    return {"value": ((F32(-2) * np.tanh(z) * sech2 * (W @ v)) @ W).astype(F32)}


def float64_hessian(inputs, probe):
    """The full Hessian W.T diag(s) W in float64, times v (fine in NumPy at these sizes)."""
    W, x, v = _parts(inputs, np.float64)
    t = np.tanh(W @ x)
    H = W.T @ ((-2.0 * t * (1.0 - t * t))[:, None] * W)
    return {"value": (H @ v).astype(F32)}


ALTERNATIVES = {"float64_formula": float64_formula, "float32_sech": float32_sech,
                "float64_hessian": float64_hessian}
