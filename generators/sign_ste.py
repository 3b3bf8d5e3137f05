"""Case generator for sign_ste (used by `judge generate`).

Interface (see README, "Generating hidden cases"):

* ``FAMILIES``: family name -> ``draw(rng)``, which returns one candidate case as
  ``{"input": {"x": array}, "probe": {"cotangent": array, "tangent": array}, "note": str}``.
  ``rng`` is a ``numpy.random.Generator`` seeded from (seed, family, index).
* ``ALTERNATIVES``: name -> ``compute(inputs, probe)``, a legitimate alternative computation of
  the expected outputs in NumPy; a candidate on which one disagrees with the reference is
  rejected. NumPy keeps subnormals while XLA on the CPU flushes them to zero, so a subnormal
  input is rejected by ``sign_float64`` (the statement promises none; no family draws them).

This module is loaded into the judge process: it may import only NumPy, ml_dtypes and the
pure standard-library modules listed in ``judge/author/generate.py``, never JAX.
"""

import ml_dtypes
import numpy as np

F32, F16, BF16 = np.dtype(np.float32), np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16)
DTYPES = [F32, F32, F16, BF16]                       # float32 twice as often
DIRECTIONS = [0.0, -0.0, 0.25, -0.5, 1.5, 2.0, -3.0, 8.0, -0.75, 100.0]   # never all ones


def _pick(rng, options):
    return options[int(rng.integers(len(options)))]


def _finfo(dtype):
    return ml_dtypes.finfo(dtype) if dtype == BF16 else np.finfo(dtype)


def _length(rng):
    return _pick(rng, [1, 2, 3, 5, 8, int(rng.integers(1, 65)), 64])


def _direction(rng, n, dtype):
    """A cotangent or tangent: zeros, negatives, fractions and random values, exact in dtype."""
    out = [(_pick(rng, DIRECTIONS) if rng.random() < 0.7 else float(rng.normal() * 3))
           for _ in range(n)]
    return np.array(out, np.float64).astype(dtype)


def _magnitudes(rng, n, dtype, low_exp, high_exp):
    """Random values 10**e with e uniform in [low_exp, high_exp], random signs, normal and
    finite in dtype (never subnormal)."""
    info = _finfo(dtype)
    e = rng.uniform(low_exp, high_exp, n)
    v = np.clip(10.0 ** e, float(info.tiny), float(info.max)) * rng.choice([-1.0, 1.0], n)
    out = v.astype(dtype)
    return np.where(np.isfinite(out.astype(np.float64)), out, np.array(info.max, dtype))


def _case(rng, x, note):
    n = x.size
    return {"input": {"x": x},
            "probe": {"cotangent": _direction(rng, n, x.dtype), "tangent": _direction(rng, n, x.dtype)},
            "note": f"{note}; {x.dtype}, {n} entries"}


def _mixed(rng, dtype, n, extra):
    """n entries: ``extra`` values placed at random among ordinary normal values."""
    x = _magnitudes(rng, n, dtype, -2, 3)
    k = min(len(extra), n)
    where = rng.permutation(n)[:k]
    x[where] = np.array(extra[:k], np.float64).astype(dtype)
    return x


def zeros(rng):
    """0.0 and -0.0 among ordinary values: sign 0, derivative still the identity."""
    dtype, n = _pick(rng, DTYPES), _length(rng)
    zs = [_pick(rng, [0.0, -0.0]) for _ in range(max(1, n // 3))]
    return _case(rng, _mixed(rng, dtype, n, zs), "zeros and -0.0")


def huge(rng):
    """Magnitudes 1e8 .. 1e38 (float32, bfloat16) or 1e3 .. 6e4 (float16), around +-1e20."""
    dtype, n = _pick(rng, DTYPES), _length(rng)
    low, high = (3, 4.8) if dtype == F16 else (8, 38)
    x = _magnitudes(rng, n, dtype, low, high)
    if dtype != F16 and n >= 2:
        x[rng.permutation(n)[:2]] = np.array([1e20, -1e20]).astype(dtype)
    return _case(rng, x, "large magnitudes")


def near_max(rng):
    """The dtype's largest finite values and a few ulps below, both signs."""
    dtype, n = _pick(rng, DTYPES), _length(rng)
    top = np.array(float(_finfo(dtype).max), np.float64).astype(dtype)
    extra = []
    for _ in range(max(1, n // 2)):
        v = top
        for _ in range(int(rng.integers(0, 4))):
            v = np.nextafter(v, np.zeros((), dtype)) if dtype != BF16 else \
                (v.astype(np.float32) * np.float32(0.99)).astype(dtype)
        extra.append(float(v) * _pick(rng, [1.0, -1.0]))
    return _case(rng, _mixed(rng, dtype, n, extra), "near the largest finite value")


def tiny_normal(rng):
    """The smallest normal values of the dtype and a little above, both signs (no subnormals)."""
    dtype, n = _pick(rng, DTYPES), _length(rng)
    tiny = float(_finfo(dtype).tiny)
    extra = [tiny * _pick(rng, [1.0, 1.0, 1.5, 2.0, 4.0, 1024.0]) * _pick(rng, [1.0, -1.0])
             for _ in range(max(1, n // 2))]
    return _case(rng, _mixed(rng, dtype, n, extra), "smallest normal values")


def half_precision(rng):
    """float16 and bfloat16 inputs of every magnitude: the output keeps the input's dtype."""
    dtype, n = _pick(rng, [F16, BF16]), _length(rng)
    low, high = (-4, 4.8) if dtype == F16 else (-30, 30)
    x = _magnitudes(rng, n, dtype, low, high)
    x[rng.random(n) < 0.15] = 0
    return _case(rng, x, "half precision")


def directions(rng):
    """Cotangents and tangents with zeros, negatives and large entries (within the dtype)."""
    dtype, n = _pick(rng, DTYPES), _length(rng)
    case = _case(rng, _magnitudes(rng, n, dtype, -5, 5), "varied cotangents and tangents")
    big = 6e4 if dtype == F16 else 1e30
    for key in ("cotangent", "tangent"):
        d = case["probe"][key]
        d[rng.random(n) < 0.3] = np.array(big * _pick(rng, [1.0, -1.0])).astype(dtype)
    return case


FAMILIES = {f.__name__: f for f in (zeros, huge, near_max, tiny_normal, half_precision, directions)}


def sign_float64(inputs, probe):
    """sign computed in float64 by NumPy (keeps subnormals), derivatives the identity."""
    x = inputs["x"]
    return {"value": np.sign(x.astype(np.float64)).astype(x.dtype),
            "vjp": probe["cotangent"], "jvp": probe["tangent"]}


ALTERNATIVES = {"sign_float64": sign_float64}
