"""Case generator for clip_by_global_norm (used by `judge generate`).

Interface (see docs/authors/generate.md, "The generator interface"):

* ``FAMILIES``: family name -> ``draw(rng)``, which returns one candidate case as
  ``{"input": {"grads": tree, "max_norm": float}, "probe": {"cotangent": tree}, "note": str}``,
  a tree being a dict whose values are float32 NumPy arrays (0-d to 2-d, at most 64 entries)
  or dicts of them, 1 to 4 leaves in all; the cotangent has the tree's keys and shapes.
  ``rng`` is a ``numpy.random.Generator`` seeded from (seed, family, index), the only source
  of randomness.
* ``ALTERNATIVES``: name -> ``compute(inputs, probe)``: the clipped tree and its VJP computed
  another legitimate way in NumPy. A candidate on which one of them disagrees with the
  reference beyond the tolerance depends on rounding and is rejected.

With g the L2 norm of all the entries together and s = min(1, max_norm / g), the output is
s * grads. Its VJP with respect to grads, for a cotangent c, is c where g < max_norm and
s * c - (max_norm / g**3) <c, grads> grads where g > max_norm. The families place max_norm
against g (below, above, within a few percent of it, never exactly at it: there the VJP
depends on the side a solution takes, so the hand-written tie cases use a cotangent
orthogonal to grads), and shape the tree so that clipping each leaf on its own, an epsilon
added to the norm or a norm without its square root give other values. The judge traces a
submission once per tree (its keys and leaf shapes) and max_norm, so every case takes both
from a short list (``CONFIGS``) and reaches its regime by scaling the entries instead. Values
are rounded to a few significant digits so that the spec stays short to read.

This module is loaded into the judge process: it may import only NumPy, ml_dtypes and pure
standard-library modules, never JAX.
"""

import numpy as np

F32 = np.float32


def _round(values, digits):
    return np.round(np.asarray(values, np.float64), digits).astype(F32)


#: (tree of leaf shapes, max_norm): each pair is one program traced per submission, so the
#: cases use no other (the examples' four and the named hidden cases' ones, with an 8 x 8 leaf)
CONFIGS = (
    ({"w": (2, 2), "b": (1,)}, 2.5),
    ({"kernel": (2,), "bias": ()}, 1.0),
    ({"dense": {"w": (3,)}, "bias": ()}, 0.5),
    ({"a": (1,), "b": (1,)}, 4.0),
    ({"w": (2,)}, 5.0),
    ({"scale": ()}, 1.0),
    ({"embedding": (2, 3), "lm_head": (2,)}, 1e6),
    ({"embedding": (2, 3), "lm_head": (2,)}, 1e-3),
    ({"dense": {"kernel": (3, 2), "bias": (2,)}, "norm": {"gamma": ()}, "logits": (3,)}, 2.0),
    ({"w": (8, 8), "b": (8,)}, 100.0),
)
#: the largest magnitude an entry may have (the spec's bound)
LIMIT = 100.0


def _leaves(tree):
    out = []
    for key in sorted(tree):
        value = tree[key]
        out.extend(_leaves(value) if isinstance(value, dict) else [value])
    return out


def _map(fn, *trees):
    first = trees[0]
    return {k: (_map(fn, *(t[k] for t in trees)) if isinstance(first[k], dict)
                else fn(*(t[k] for t in trees))) for k in first}


def _norm(tree):
    return float(np.sqrt(sum(np.sum(np.asarray(leaf, np.float64) ** 2) for leaf in _leaves(tree))))


def _cotangent(rng, tree):
    return _map(lambda leaf: _round(rng.normal(size=np.shape(leaf)), 2), tree)


def _config(rng, keep=lambda shapes, max_norm: True):
    """A (shapes, max_norm) pair of ``CONFIGS`` that ``keep`` admits, drawn uniformly."""
    options = [c for c in CONFIGS if keep(*c)]
    return options[int(rng.integers(len(options)))]


def _several(shapes, max_norm):
    return len(_leaves(shapes)) >= 2


def _clippable(shapes, max_norm):
    return max_norm <= LIMIT


def _scaled(rng, shapes, g, zero=()):
    """A tree of the given shapes with Gaussian entries scaled to a global norm of about g,
    rounded to 3 significant digits of the typical entry; the leaves at the positions in
    ``zero`` (in key order) all zero. None where an entry would pass the spec's bound."""
    paths = iter(range(len(_leaves(shapes))))
    tree = _map(lambda s: (np.zeros(s) if next(paths) in zero else rng.normal(size=s)), shapes)
    raw = _norm(tree)
    if raw == 0:
        return None
    scale = g / raw
    typical = g / np.sqrt(sum(max(int(np.prod(s)), 1) for s in _leaves(shapes)))
    digits = max(2, 2 - int(np.floor(np.log10(typical))))
    tree = _map(lambda x: _round(np.asarray(x) * scale, digits), tree)
    if any(np.any(np.abs(leaf) > LIMIT) for leaf in _leaves(tree)):
        return None
    return tree


def _drawn(rng, shapes, max_norm, ratio, ok, zero=lambda rng, count: ()):
    """Draw trees with a norm of max_norm / ratio(rng) (at most a third of what the bound on
    the entries allows) until ``ok(g)`` holds for their norm."""
    count = len(_leaves(shapes))
    size = sum(max(int(np.prod(s)), 1) for s in _leaves(shapes))
    cap = LIMIT * np.sqrt(size) / 3
    while True:
        grads = _scaled(rng, shapes, min(max_norm / ratio(rng), cap), zero(rng, count))
        if grads is not None and ok(_norm(grads)):
            return grads


def _case(rng, grads, max_norm, note):
    g = _norm(grads)
    count = len(_leaves(grads))
    where = "zero" if g == 0 else ("clipped" if g > max_norm else "unchanged")
    return {"input": {"grads": grads, "max_norm": float(max_norm)},
            "probe": {"cotangent": _cotangent(rng, grads)},
            "note": f"{note}; {count} leaves, g {g:.4g}, max_norm {max_norm:g}, {where}"}


def below(rng):
    """max_norm above g (from 1.05 g to 5 g): the tree comes back unchanged, the VJP is the
    cotangent itself."""
    shapes, c = _config(rng)
    grads = _drawn(rng, shapes, c, lambda r: r.uniform(1.05, 5.0), lambda g: g < c / 1.04)
    return _case(rng, grads, c, "below max_norm")


def above(rng):
    """max_norm from 0.02 g to 0.95 g: every leaf scaled by max_norm / g."""
    shapes, c = _config(rng, _clippable)
    grads = _drawn(rng, shapes, c, lambda r: r.uniform(0.02, 0.95), lambda g: g > c * 1.04)
    return _case(rng, grads, c, "above max_norm")


def near_max(rng):
    """g within 0.1% to 3% of max_norm, on either side (never equal)."""
    shapes, c = _config(rng, _clippable)
    side = 1.0 if rng.random() < 0.5 else -1.0
    grads = _drawn(rng, shapes, c, lambda r: r.uniform(1.001, 1.03) ** side,
                   lambda g: 1.0005 < (g / c) ** -side < 1.035)
    return _case(rng, grads, c, "near max_norm")


def per_leaf_differs(rng):
    """2 to 4 leaves, each of norm below max_norm while the global norm is above it: clipping
    each leaf on its own would leave them all unchanged."""
    shapes, c = _config(rng, lambda s, m: _several(s, m) and _clippable(s, m))
    while True:
        grads = _drawn(rng, shapes, c, lambda r: r.uniform(0.55, 0.98), lambda g: g > c * 1.02)
        if max(_norm({"x": leaf}) for leaf in _leaves(grads)) < c * 0.98:
            return _case(rng, grads, c, "global norm above, leaf norms below")


def one_dominant_leaf(rng):
    """One leaf of entries near +-50 to +-100 beside leaves of entries near 0.01: the small
    leaves are scaled by the same factor as the large one."""
    shapes, c = _config(rng, lambda s, m: _several(s, m) and m < 50)
    leaves = len(_leaves(shapes))
    big = int(rng.integers(leaves))
    paths = iter(range(leaves))

    def leaf(shape):
        if next(paths) == big:
            return _round(rng.uniform(50, 100, size=shape) * float(rng.choice([-1.0, 1.0])), 1)
        return _round(rng.normal(size=shape) * 0.01, 4)

    return _case(rng, _map(leaf, shapes), c, "one dominant leaf")


def tiny_norm(rng):
    """Entries of about 1e-3 and max_norm 1e-3 below g: an epsilon of 1e-6 added to g changes
    the result by about 1e-3 of itself."""
    shapes, c = _config(rng, lambda s, m: m < 0.01)
    grads = _drawn(rng, shapes, c, lambda r: r.uniform(0.2, 0.9), lambda g: g > c * 1.04)
    return _case(rng, grads, c, "tiny norm")


def scalar_leaves(rng):
    """Only 0-d leaves, clipped or not."""
    shapes, c = _config(rng, lambda s, m: all(leaf == () for leaf in _leaves(s)))
    grads = _drawn(rng, shapes, c, lambda r: r.uniform(0.1, 2.0), lambda g: abs(g / c - 1) > 0.05)
    return _case(rng, grads, c, "scalar leaves")


def large_leaves(rng):
    """An 8 x 8 leaf (64 entries, the most a leaf may have) with entries up to +-100, beside
    a smaller leaf; mostly clipped."""
    shapes, c = _config(rng, lambda s, m: any(np.prod(leaf) == 64 for leaf in _leaves(s)))
    factor = 1.0 if rng.random() < 0.75 else rng.uniform(0.05, 0.15)
    while True:
        grads = _map(lambda s: _round(rng.uniform(-LIMIT, LIMIT, size=s) * factor, 1), shapes)
        if abs(_norm(grads) / c - 1) > 0.05:
            return _case(rng, grads, c, "large leaves")


def nested(rng):
    """Two levels of dicts ({"dense": {"w": ...}, "bias": ...}, ...), clipped or not."""
    shapes, c = _config(rng, lambda s, m: any(isinstance(v, dict) for v in s.values()))
    ratio = (lambda r: r.uniform(0.1, 0.9)) if rng.random() < 0.7 else (lambda r: r.uniform(1.1, 3.0))
    grads = _drawn(rng, shapes, c, ratio, lambda g: abs(g / c - 1) > 0.05)
    return _case(rng, grads, c, "nested dicts")


def all_zero(rng):
    """Every entry zero: the tree comes back unchanged and the VJP is the cotangent (a norm
    whose square root is differentiated at 0 gives NaN here)."""
    shapes, c = _config(rng)
    return _case(rng, _map(lambda s: np.zeros(s, F32), shapes), c, "all zero")


def some_zero_leaves(rng):
    """Some leaves all zero beside non-zero ones, clipped: the zero leaves stay zero, their
    VJP is scaled like the others'."""
    shapes, c = _config(rng, lambda s, m: _several(s, m) and _clippable(s, m))

    def zero(r, count):
        keep = int(r.integers(count))
        return tuple(i for i in range(count) if i != keep and r.random() < 0.6) or \
            ((keep + 1) % count,)

    grads = _drawn(rng, shapes, c, lambda r: r.uniform(0.1, 0.9), lambda g: g > c * 1.04, zero)
    return _case(rng, grads, c, "zero leaves")


FAMILIES = {"below": below, "above": above, "near_max": near_max,
            "per_leaf_differs": per_leaf_differs, "one_dominant_leaf": one_dominant_leaf,
            "tiny_norm": tiny_norm, "scalar_leaves": scalar_leaves, "large_leaves": large_leaves,
            "nested": nested, "all_zero": all_zero, "some_zero_leaves": some_zero_leaves}


def _cot(probe):
    cot = probe.get("cotangent") if probe else None
    return cot


def float64_formula(inputs, probe):
    """s = min(1, max_norm / g) and the VJP's closed form, in float64, rounded once."""
    grads, c = inputs["grads"], float(inputs["max_norm"])
    g = _norm(grads)
    s = 1.0 if g <= c else c / g
    value = _map(lambda x: (np.asarray(x, np.float64) * s).astype(F32), grads)
    out = {"value": value}
    cot = _cot(probe)
    if cot is not None:
        if g <= c:
            vjp = _map(lambda ct: np.asarray(ct, F32), cot)
        else:
            dot = sum(np.sum(np.asarray(a, np.float64) * np.asarray(b, np.float64))
                      for a, b in zip(_leaves(cot), _leaves(grads)))
            k = c * dot / g ** 3
            vjp = _map(lambda ct, x: (s * np.asarray(ct, np.float64)
                                      - k * np.asarray(x, np.float64)).astype(F32), cot, grads)
        out["vjp"] = {"grads": vjp}
    return out


def float32_concat(inputs, probe):
    """In float32: every leaf raveled into one vector, np.linalg.norm of it, the scale as
    where(g > c, c / g, 1), and the VJP as the scaled cotangent minus its projection on the
    direction of grads."""
    grads, c = inputs["grads"], F32(inputs["max_norm"])
    flat = np.concatenate([leaf.astype(F32).ravel() for leaf in _leaves(grads)])
    g = F32(np.linalg.norm(flat))
    clipped = bool(g > c)
    s = F32(c / g) if clipped else F32(1)
    out = {"value": _map(lambda x: (np.asarray(x, F32) * s).astype(F32), grads)}
    cot = _cot(probe)
    if cot is not None:
        if clipped:
            u = (flat / g).astype(F32)
            ct_flat = np.concatenate([np.asarray(l, F32).ravel() for l in _leaves(cot)])
            proj = F32(np.dot(ct_flat, u))
            vjp = _map(lambda ct, x: (s * (np.asarray(ct, F32) - proj * (np.asarray(x, F32) / g))
                                      ).astype(F32), cot, grads)
        else:
            vjp = _map(lambda ct: np.asarray(ct, F32), cot)
        out["vjp"] = {"grads": vjp}
    return out


def float32_leafwise(inputs, probe):
    """In float32, leaf by leaf in key order: sum of squares accumulated, the square root,
    each leaf multiplied by c and divided by g (optax's order of operations)."""
    grads, c = inputs["grads"], F32(inputs["max_norm"])
    total = F32(0)
    for leaf in _leaves(grads):
        total = F32(total + np.sum(np.square(leaf.astype(F32))))
    g = F32(np.sqrt(total))
    clipped = bool(g > c)
    out = {"value": _map(lambda x: ((np.asarray(x, F32) / g) * c).astype(F32) if clipped
                         else np.asarray(x, F32), grads)}
    cot = _cot(probe)
    if cot is not None:
        if clipped:
            dot = F32(0)
            for a, b in zip(_leaves(cot), _leaves(grads)):
                dot = F32(dot + np.sum(np.asarray(a, F32) * np.asarray(b, F32)))
            k = F32(c / g * (dot / (g * g)))
            vjp = _map(lambda ct, x: ((np.asarray(ct, F32) / g) * c - k * np.asarray(x, F32)
                                      ).astype(F32), cot, grads)
        else:
            vjp = _map(lambda ct: np.asarray(ct, F32), cot)
        out["vjp"] = {"grads": vjp}
    return out


ALTERNATIVES = {"float64_formula": float64_formula, "float32_concat": float32_concat,
                "float32_leafwise": float32_leafwise}
