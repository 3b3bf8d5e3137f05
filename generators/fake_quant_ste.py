"""Case generator for fake_quant_ste (used by `judge generate`).

Interface (see README, "Generating hidden cases"):

* ``FAMILIES``: family name -> ``draw(rng)``, which returns one candidate case as
  ``{"input": {parameter: value}, "note": str, "exact": bool}``. ``rng`` is a
  ``numpy.random.Generator`` seeded from (seed, family, index); use nothing else as a source of
  randomness. ``exact`` says every entry sits on an exact tie or boundary on purpose.
* ``ALTERNATIVES``: name -> ``compute(inputs, probe)``, a legitimate alternative float
  computation of the expected outputs in NumPy. A candidate on which any of them disagrees
  with the reference (beyond the tolerance) is ambiguous and is rejected.

This module is loaded into the judge process: it may import only NumPy, ml_dtypes and the
pure standard-library modules listed in ``judge/author/generate.py``, never JAX.
"""

import numpy as np

F32 = np.float32
# Each (scale, qmin, qmax, shape of x) is a program a worker traces for every submission
# graded, so the families draw them from the spec's own short list and vary x and the cotangent
# freely: the examples' three, one entry, a 1 x 6 row, int8 in 2 x 3, an unsigned range past
# int8 at a decimal scale, a scale exact in binary but not a power of two, and a range of one
# step that holds no zero.
EXAMPLES = [(0.5, -4, 3, (5,)), (0.25, 0, 15, (2, 2)), (1.0, -2, 2, (5,))]
SINGLE = (0.5, -4, 3, (1,))
ROW = (0.25, -8, 7, (1, 6))
INT8 = (2.0, -128, 127, (2, 3))
DECIMAL = (0.001, 0, 255, (6,))
BINARY = (3.0, -4, 3, (6,))
NARROW = (2.0, 3, 4, (6,))
POW2 = EXAMPLES + [SINGLE, ROW, INT8, NARROW]     # power-of-two scales: x / scale is exact
CONFIGS = POW2 + [DECIMAL, BINARY]
COTANGENTS = [1.0, -1.0, 2.0, 0.5, -3.0, 0.25, 1000.0, -0.125, 7.0]


def _pick(rng, options):
    return options[int(rng.integers(len(options)))]


def _cotangent(rng, shape, zeros=0.1):
    """Mostly nonzero (a zero cotangent hides a wrong mask), of varied sign and size."""
    out = np.empty(shape, F32)
    for idx in np.ndindex(shape):
        u = rng.random()
        out[idx] = 0.0 if u < zeros else (_pick(rng, COTANGENTS) if u < 0.6 else F32(rng.normal() * 4))
    return out


def _ratio(rng, kind, qmin, qmax):
    """A target value of x / scale of the given kind."""
    if kind == "tie":
        return int(rng.integers(qmin - 1, qmax + 1)) + 0.5      # qmin-0.5 .. qmax+0.5
    if kind == "bound":
        return float(_pick(rng, [qmin, qmax]))
    if kind == "int":                                          # an exact level inside the range
        return float(rng.integers(qmin, qmax + 1))
    if kind == "outside":                                      # in (qmax, qmax+0.5) or (qmin-0.5, qmin)
        d = 0.5 * float(rng.uniform(0.02, 0.98))
        return qmax + d if rng.random() < 0.5 else qmin - d
    if kind == "inside":                                       # in (qmax-0.5, qmax) or (qmin, qmin+0.5)
        d = 0.5 * float(rng.uniform(0.02, 0.98))
        return qmax - d if rng.random() < 0.5 else qmin + d
    if kind == "far":
        span = max(abs(qmin), abs(qmax), 1)
        r = span * 10.0 ** float(rng.uniform(0.5, 9.0))
        return r if rng.random() < 0.5 else -r
    if kind == "zero":
        return _pick(rng, [0.0, -0.0, -0.5, 0.5, -float(rng.uniform(0.01, 0.49))])
    return float(rng.uniform(qmin, qmax))                      # "random"


def _entry(rng, kind, scale, qmin, qmax):
    """One float32 entry of x; "ulp" kinds step one float32 ulp across a bound."""
    if kind in ("ulp_out", "ulp_in"):
        upper = rng.random() < 0.5
        x = F32((qmax if upper else qmin) * scale)
        step = (1 if upper else -1) * (1 if kind == "ulp_out" else -1)
        if x == 0:  # one ulp from 0 is subnormal (flushed to zero by XLA): the smallest normal
            return F32(step * np.finfo(F32).tiny)
        return np.nextafter(x, F32(step * np.inf))
    r = _ratio(rng, kind, qmin, qmax)
    return F32(r * scale)


def _case(rng, kinds, config, note="", exact=False):
    scale, qmin, qmax, shape = config
    x = np.empty(shape, F32)
    for idx in np.ndindex(shape):
        x[idx] = _entry(rng, _pick(rng, kinds), scale, qmin, qmax)
    return {"input": {"x": x, "scale": float(scale), "qmin": int(qmin), "qmax": int(qmax),
                      "cotangent": _cotangent(rng, shape)},
            "note": f"{note}; scale {scale:.6g}, range {qmin}..{qmax}, shape {shape}",
            "exact": exact}


MIXED = ["tie", "bound", "outside", "inside", "far", "random", "ulp_out", "ulp_in"]


def ties(rng):
    """x / scale = k + 0.5 exactly (power-of-two scale), from qmin - 0.5 to qmax + 0.5."""
    return _case(rng, ["tie"], _pick(rng, POW2), note="exact ties k + 0.5", exact=True)


def binary_scale_ties(rng):
    """Ties and bounds at a scale exact in binary but not a power of two (1 / 3 is inexact)."""
    return _case(rng, ["tie", "bound"], BINARY, note="ties and bounds at a non-power-of-two binary scale")


def bounds(rng):
    """x / scale exactly qmin or qmax (the mask includes both ends), beside exact levels."""
    return _case(rng, ["bound", "bound", "int"], _pick(rng, POW2),
                 note="x / scale exactly on qmin or qmax", exact=True)


def just_outside(rng):
    """x / scale in (qmax, qmax + 0.5) or (qmin - 0.5, qmin): rounds onto a bound, mask 0."""
    return _case(rng, ["outside", "ulp_out"], _pick(rng, CONFIGS),
                 note="just outside the range, rounding onto a bound")


def just_inside(rng):
    """x / scale within half a step inside a bound, or one ulp inside it: mask 1."""
    return _case(rng, ["inside", "ulp_in", "bound"], _pick(rng, CONFIGS), note="just inside the range")


def far_outside(rng):
    """|x / scale| from 3x the range to 1e9x (beyond int32): clipped, mask 0."""
    return _case(rng, ["far", "far", "far", "random"], _pick(rng, CONFIGS), note="far outside the range")


def random_in_range(rng):
    """Uniform x / scale in [qmin, qmax] at any scale (near-ties are filtered out)."""
    return _case(rng, ["random"], _pick(rng, CONFIGS), note="random in range")


def shapes_2d(rng):
    """Two-dimensional x (2 x 2, 1 x 6, 2 x 3) with mixed entries."""
    return _case(rng, MIXED, _pick(rng, [c for c in CONFIGS if len(c[3]) == 2]), note="2-D, mixed entries")


def sizes_1_and_6(rng):
    """The smallest and largest inputs: 1 or 6 entries, 1-D or 2-D."""
    config = _pick(rng, [c for c in CONFIGS if int(np.prod(c[3])) in (1, 6)])
    size = int(np.prod(config[3]))
    return _case(rng, MIXED, config, note=f"{size} entr{'y' if size == 1 else 'ies'}")


def unsigned(rng):
    """qmin = 0: negative x clips to 0, small negative ratios round to -0."""
    return _case(rng, ["zero", "tie", "bound", "outside", "far", "random"],
                 _pick(rng, [c for c in CONFIGS if c[1] == 0]), note="unsigned range")


def narrow_and_wide(rng):
    """A range of one step that holds no zero, and an unsigned one of 256 levels (past int8)."""
    config = _pick(rng, [NARROW, DECIMAL])
    return _case(rng, MIXED, config, note="narrow range" if config is NARROW else "256 levels")


def decimal_scales(rng):
    """A non-power-of-two scale, where x / scale is inexact."""
    return _case(rng, MIXED, _pick(rng, [DECIMAL, BINARY]), note="non-power-of-two scale")


def negative_zero(rng):
    """-0.0 and 0.0 entries, and small negatives that round to -0."""
    return _case(rng, ["zero", "zero", "tie", "random"], _pick(rng, POW2), note="signed zeros")


def cotangents(rng):
    """Cotangents with zeros, negatives, fractions and large values next to masked entries."""
    case = _case(rng, MIXED, _pick(rng, POW2))
    x = case["input"]["x"]
    c = np.array([_pick(rng, [0.0, -0.0, -2.5, 1e4, -1e-3, 3.0, 1e20, -7.25])
                  for _ in range(x.size)], F32).reshape(x.shape)
    case["input"]["cotangent"] = c
    case["note"] = "varied cotangents" + case["note"]
    return case


FAMILIES = {f.__name__: f for f in (
    ties, binary_scale_ties, bounds, just_outside, just_inside, far_outside, random_in_range,
    shapes_2d, sizes_1_and_6, unsigned, narrow_and_wide, decimal_scales, negative_zero, cotangents)}


# -- legitimate alternative computations ---------------------------------------------------------

def _outputs(r, mask_r, scale, qmin, qmax, cotangent, dtype=F32):
    with np.errstate(over="ignore", invalid="ignore"):
        k = np.clip(np.round(r), dtype(qmin), dtype(qmax))       # np.round: half to even
        values = (dtype(scale) * k).astype(F32)
    inside = (mask_r >= qmin) & (mask_r <= qmax)
    return {"values": values, "grads": (cotangent * inside.astype(F32)).astype(F32)}


def _args(inputs):
    return inputs["x"], inputs["scale"], inputs["qmin"], inputs["qmax"], inputs["cotangent"]


def divide_f32(inputs, probe):
    """x / scale in float32, the statement's formula."""
    x, scale, qmin, qmax, c = _args(inputs)
    r = x / F32(scale)
    return _outputs(r, r, scale, qmin, qmax, c)


def reciprocal_f32(inputs, probe):
    """x * (1 / scale) with the reciprocal rounded in float32, as XLA rewrites a division."""
    x, scale, qmin, qmax, c = _args(inputs)
    with np.errstate(over="ignore"):
        r = x * (F32(1) / F32(scale))
    return _outputs(r, r, scale, qmin, qmax, c)


def reciprocal_f64(inputs, probe):
    """x * (1.0 / scale) with the reciprocal taken in Python (double), then float32."""
    x, scale, qmin, qmax, c = _args(inputs)
    with np.errstate(over="ignore"):
        r = x * F32(1.0 / scale)
    return _outputs(r, r, scale, qmin, qmax, c)


def float64(inputs, probe):
    """Everything in float64 (division, rounding, comparisons), cast to float32 at the end."""
    x, scale, qmin, qmax, c = _args(inputs)
    r = x.astype(np.float64) / scale
    return _outputs(r, r, scale, qmin, qmax, c, dtype=np.float64)


def scaled_bounds(inputs, probe):
    """The mask as qmin * scale <= x <= qmax * scale, compared in float32."""
    x, scale, qmin, qmax, c = _args(inputs)
    r = x / F32(scale)
    out = _outputs(r, r, scale, qmin, qmax, c)
    inside = (x >= F32(qmin * scale)) & (x <= F32(qmax * scale))
    out["grads"] = (c * inside.astype(F32)).astype(F32)
    return out


ALTERNATIVES = {f.__name__: f for f in (divide_f32, reciprocal_f32, reciprocal_f64, float64,
                                        scaled_bounds)}
