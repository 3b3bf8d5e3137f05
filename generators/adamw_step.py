"""Case generator for adamw_step (used by `judge generate`).

Interface (see docs/authors/generate.md, "The generator interface"):

* ``FAMILIES``: family name -> ``draw(rng)``, which returns one candidate case as
  ``{"input": {"params": tree, "grads": tree, "m": tree, "v": tree, "count": int32 0-d array,
  "lr": float, "b1": float, "b2": float, "eps": float, "weight_decay": float}, "note": str}``,
  a tree being a dict whose values are float32 NumPy arrays (0-d to 2-d, at most 64 entries)
  or dicts of them, 1 to 4 leaves in all; grads, m and v have the keys and shapes of params,
  and v is never negative. ``rng`` is a ``numpy.random.Generator`` seeded from (seed, family,
  index), the only source of randomness.
* ``ALTERNATIVES``: name -> ``compute(inputs, probe)``: the same step computed another
  legitimate way in NumPy. A candidate on which one of them disagrees with the reference
  beyond the tolerance depends on rounding and is rejected.

The step (optax.adamw, eps_root 0), with t = count + 1:
m' = b1 m + (1 - b1) g, v' = b2 v + (1 - b2) g^2, m_hat = m' / (1 - b1^t),
v_hat = v' / (1 - b2^t), params' = params - lr (m_hat / (sqrt(v_hat) + eps) + wd params).

The families cover the first step (count 0, zero moments: the bias correction divides by
1 - b1 and 1 - b2, so a step number of count instead of count + 1 divides by zero), the
middle and the end of training (count up to 100000, where b^t underflows), gradients of about
eps (eps inside the square root differs most there), no weight decay, b1 = 0 or b2 = 0, and
nested trees. The judge traces a submission once per tree (its keys and leaf shapes) and set
of hyperparameters (the five Python floats), so every case takes both from a short list
(``CONFIGS``: the examples' four, the named hidden cases' b1 = 0, b2 = 0, four-leaf nested and
four-scalar ones, and an 8 x 8 leaf); the families vary count, the values and which of those
configurations they use. The values are rounded to a few digits so that the spec stays short
to read. One alternative casts every hyperparameter to float32 first, as a jitted solution that takes them as arguments does:
(1 - b2) then carries float32's rounding of b2, which is why v has a looser tolerance.

This module is loaded into the judge process: it may import only NumPy, ml_dtypes and pure
standard-library modules, never JAX.
"""

import numpy as np

F32 = np.float32

#: (tree of leaf shapes, (lr, b1, b2, eps, weight_decay)): each pair is one program traced per
#: submission, so the cases use no other
CONFIGS = (
    ({"w": (2,), "b": ()}, (0.1, 0.9, 0.999, 1e-8, 0.01)),
    ({"kernel": (1, 2)}, (0.01, 0.5, 0.5, 0.1, 0.1)),
    ({"layer": {"w": (2,)}, "head": {"b": ()}}, (0.1, 0.9, 0.999, 1e-8, 0.5)),
    ({"scale": ()}, (0.001, 0.9, 0.999, 1e-8, 0.0)),
    ({"w": (3,), "b": (1,)}, (0.01, 0.0, 0.99, 1e-8, 0.01)),
    ({"kernel": (2, 2)}, (0.05, 0.9, 0.0, 1e-6, 0.05)),
    ({"encoder": {"w": (2, 2), "b": (2,)}, "decoder": {"w": (1, 2)}, "logits_scale": ()},
     (0.002, 0.9, 0.999, 1e-8, 0.05)),
    ({"gamma": (), "beta": (), "scale": (), "offset": ()}, (0.01, 0.8, 0.95, 1e-8, 0.1)),
    ({"w": (8, 8), "b": (8,)}, (0.001, 0.9, 0.999, 1e-8, 0.01)),
)


def _nested(tree):
    return any(isinstance(value, dict) for value in tree.values())


def _size(shape):
    return int(np.prod(shape, dtype=np.int64))


def _config(rng, keep=lambda shapes, hyper: True):
    """A (shapes, hyper) pair of ``CONFIGS`` that ``keep`` admits, drawn uniformly."""
    options = [c for c in CONFIGS if keep(*c)]
    return options[int(rng.integers(len(options)))]


def _round(values, digits):
    return np.round(np.asarray(values, np.float64), digits).astype(F32)


def _map(fn, *trees):
    first = trees[0]
    return {k: (_map(fn, *(t[k] for t in trees)) if isinstance(first[k], dict)
                else fn(*(t[k] for t in trees))) for k in first}


def _leaves(tree):
    out = []
    for key in sorted(tree):
        value = tree[key]
        out.extend(_leaves(value) if isinstance(value, dict) else [np.asarray(value)])
    return out


def _state(rng, shapes, p_scale=1.0, g_scale=0.1, m_scale=0.05, v_scale=0.01, digits=4,
           fresh=False):
    params = _map(lambda s: _round(rng.normal(size=s) * p_scale, 3), shapes)
    grads = _map(lambda s: _round(rng.normal(size=s) * g_scale, digits), shapes)
    if fresh:
        m = _map(lambda s: np.zeros(s, F32), shapes)
        v = _map(lambda s: np.zeros(s, F32), shapes)
    else:
        m = _map(lambda s: _round(rng.normal(size=s) * m_scale, digits), shapes)
        # v at least about m^2, as a running mean of g^2 is (|m| / sqrt(v) stays about 1 or less)
        v = _map(lambda s, m_: _round(np.asarray(m_, np.float64) ** 2 * rng.uniform(1.0, 4.0, size=s)
                                      + (rng.normal(size=s) * v_scale) ** 2 + v_scale ** 2 * 0.01,
                                      digits + 3), shapes, m)
    return params, grads, m, v


def _case(params, grads, m, v, count, lr, b1, b2, eps, wd, note):
    inputs = {"params": params, "grads": grads, "m": m, "v": v,
              "count": np.asarray(count, np.int32), "lr": float(lr), "b1": float(b1),
              "b2": float(b2), "eps": float(eps), "weight_decay": float(wd)}
    leaves = len(_leaves(params))
    return {"input": inputs,
            "note": f"{note}; {leaves} leaves, count {count}, lr {lr:g}, b1 {b1:g}, b2 {b2:g}, "
                    f"eps {eps:g}, weight_decay {wd:g}"}


def first_step(rng):
    """count 0 and zero moments: m_hat = g, v_hat = g^2, the Adam direction is about sign(g)."""
    shapes, hyper = _config(rng)
    params, grads, m, v = _state(rng, shapes, fresh=True)
    return _case(params, grads, m, v, 0, *hyper, "first step")


def early(rng):
    """count from 1 to 20: the bias corrections are far from 1."""
    shapes, hyper = _config(rng)
    params, grads, m, v = _state(rng, shapes)
    return _case(params, grads, m, v, int(rng.integers(1, 21)), *hyper, "early steps")


def mid_training(rng):
    """count from 50 to 3000: 1 - b2^t still matters for b2 = 0.999."""
    shapes, hyper = _config(rng)
    params, grads, m, v = _state(rng, shapes)
    return _case(params, grads, m, v, int(rng.integers(50, 3001)), *hyper, "mid training")


def late(rng):
    """count from 20000 to 100000: b1^t and b2^t underflow, the corrections are 1."""
    shapes, hyper = _config(rng)
    params, grads, m, v = _state(rng, shapes)
    return _case(params, grads, m, v, int(rng.integers(20000, 100001)), *hyper,
                 "late training")


def eps_scale(rng):
    """Gradients and moments of about sqrt(eps), with eps 1e-6 or 0.1: eps placed inside the
    square root changes the step."""
    shapes, hyper = _config(rng, lambda shapes, hyper: hyper[3] >= 1e-6)
    scale = float(np.sqrt(hyper[3])) * 0.5
    params, grads, m, v = _state(rng, shapes, g_scale=scale, m_scale=scale, v_scale=scale,
                                 digits=8)
    return _case(params, grads, m, v, int(rng.integers(0, 30)), *hyper, "grads near eps")


def no_decay(rng):
    """weight_decay 0: plain Adam."""
    shapes, hyper = _config(rng, lambda shapes, hyper: hyper[4] == 0)
    params, grads, m, v = _state(rng, shapes)
    return _case(params, grads, m, v, int(rng.integers(0, 500)), *hyper, "no weight decay")


def strong_decay(rng):
    """The strongest weight decay, 0.5, and large params: the decay term dominates the step."""
    strongest = max(hyper[4] for _, hyper in CONFIGS)
    shapes, hyper = _config(rng, lambda shapes, hyper: hyper[4] == strongest)
    params, grads, m, v = _state(rng, shapes, p_scale=10.0)
    return _case(params, grads, m, v, int(rng.integers(0, 200)), *hyper, "strong weight decay")


def zero_betas(rng):
    """b1 = 0 (no momentum) or b2 = 0 (v' = g^2): 0^t = 0, no bias correction."""
    shapes, hyper = _config(rng, lambda shapes, hyper: 0.0 in hyper[1:3])
    params, grads, m, v = _state(rng, shapes)
    return _case(params, grads, m, v, int(rng.integers(0, 100)), *hyper, "zero betas")


def zero_grads(rng):
    """Some gradient entries exactly zero, some with zero moments too (0 / (0 + eps) = 0:
    only the weight decay moves those params)."""
    shapes, hyper = _config(rng)
    params, grads, m, v = _state(rng, shapes)
    mask = _map(lambda g: rng.random(size=np.shape(g)) < 0.5, grads)
    grads = _map(lambda g, k: np.where(k, F32(0), g).astype(F32), grads, mask)
    fresh = _map(lambda k: k & (rng.random(size=np.shape(k)) < 0.5), mask)
    m = _map(lambda x, k: np.where(k, F32(0), x).astype(F32), m, fresh)
    v = _map(lambda x, k: np.where(k, F32(0), x).astype(F32), v, fresh)
    return _case(params, grads, m, v, int(rng.integers(0, 50)), *hyper, "zero gradients")


def nested(rng):
    """Two levels of dicts ({"layer": {"w": ...}, "head": {"b": ...}}, ...)."""
    shapes, hyper = _config(rng, lambda shapes, hyper: _nested(shapes))
    params, grads, m, v = _state(rng, shapes)
    return _case(params, grads, m, v, int(rng.integers(0, 1000)), *hyper, "nested dicts")


def large_leaves(rng):
    """An 8 x 8 leaf (64 entries, the most a leaf may have) and large gradients."""
    shapes, hyper = _config(rng, lambda shapes, hyper: any(
        _size(s) == 64 for s in shapes.values() if not isinstance(s, dict)))
    params, grads, m, v = _state(rng, shapes, g_scale=10.0, m_scale=3.0, v_scale=5.0, digits=2)
    return _case(params, grads, m, v, int(rng.integers(0, 5000)), *hyper, "large leaves")


FAMILIES = {"first_step": first_step, "early": early, "mid_training": mid_training,
            "late": late, "eps_scale": eps_scale, "no_decay": no_decay,
            "strong_decay": strong_decay, "zero_betas": zero_betas, "zero_grads": zero_grads,
            "nested": nested, "large_leaves": large_leaves}


def float64_formula(inputs, probe):
    """The step in float64 with the hyperparameters as given, rounded once per output."""
    f = np.float64
    lr, b1, b2, eps, wd = (float(inputs[k]) for k in ("lr", "b1", "b2", "eps", "weight_decay"))
    t = int(inputs["count"]) + 1
    bc1, bc2 = 1.0 - b1 ** t, 1.0 - b2 ** t
    m = _map(lambda m_, g: b1 * np.asarray(m_, f) + (1 - b1) * np.asarray(g, f),
             inputs["m"], inputs["grads"])
    v = _map(lambda v_, g: b2 * np.asarray(v_, f) + (1 - b2) * np.asarray(g, f) ** 2,
             inputs["v"], inputs["grads"])
    params = _map(lambda p, m_, v_: (np.asarray(p, f) - lr * ((m_ / bc1) / (np.sqrt(v_ / bc2) + eps)
                                                             + wd * np.asarray(p, f))).astype(F32),
                  inputs["params"], m, v)
    return {"params": params, "m": _map(lambda x: x.astype(F32), m),
            "v": _map(lambda x: x.astype(F32), v), "count": np.asarray(t, np.int32)}


def float32_hyper(inputs, probe):
    """In float32 with every hyperparameter cast to float32 first (what jax.jit does to
    Python floats passed as arguments), in PyTorch's order: decay the params by
    (1 - lr wd) first, then subtract (lr / bc1) m' / (sqrt(v') / sqrt(bc2) + eps)."""
    lr, b1, b2, eps, wd = (F32(inputs[k]) for k in ("lr", "b1", "b2", "eps", "weight_decay"))
    one = F32(1)
    t = F32(int(inputs["count"]) + 1)
    with np.errstate(under="ignore"):
        bc1, bc2 = F32(one - np.power(b1, t)), F32(one - np.power(b2, t))
    m = _map(lambda m_, g: (b1 * np.asarray(m_, F32) + (one - b1) * np.asarray(g, F32)).astype(F32),
             inputs["m"], inputs["grads"])
    v = _map(lambda v_, g: (b2 * np.asarray(v_, F32) + (one - b2) * np.square(np.asarray(g, F32))
                            ).astype(F32), inputs["v"], inputs["grads"])
    step = F32(lr / bc1)
    root = F32(np.sqrt(bc2))

    def update(p, m_, v_):
        p = (np.asarray(p, F32) * (one - lr * wd)).astype(F32)
        return (p - step * (m_ / (np.sqrt(v_) / root + eps))).astype(F32)

    return {"params": _map(update, inputs["params"], m, v), "m": m, "v": v,
            "count": np.asarray(int(inputs["count"]) + 1, np.int32)}


ALTERNATIVES = {"float64_formula": float64_formula, "float32_hyper": float32_hyper}
