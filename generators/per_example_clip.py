"""Case generator for per_example_clip (used by `judge generate`).

Interface (see README, "The generator interface"):

* ``FAMILIES``: family name -> ``draw(rng)``, which returns one candidate case as
  ``{"input": {"w": (d,), "b": (), "X": (n, d), "y": (n,), "clip_norm": float}, "note": str}``;
  ``rng`` is a ``numpy.random.Generator`` seeded from (seed, family, index), the only source
  of randomness.
* ``ALTERNATIVES``: name -> ``compute(inputs, probe)``: the same clipped mean gradient computed
  another legitimate way in NumPy. A candidate on which one of them disagrees with the
  reference beyond the tolerance (rtol 1e-5, atol 1e-6) depends on rounding and is rejected.

Example i has residual r_i = X[i] . w + b - y[i] and gradient g_i = (r_i X[i], r_i), whose norm
is |r_i| sqrt(|X[i]|^2 + 1). The families place the norms against clip_norm: all of them above
it (every example clipped), all below (none clipped), on both sides (some clipped), with a bias
part that dominates (clipping the bias on its own differs most there), wide features, exact fits
(zero gradients), one example and large batches. The judge traces a submission once per pair of
d and clip_norm (n is a symbol and costs nothing), so the cases take that pair from a short list
(``CONFIGS``: the examples' four pairs, a tiny clip_norm, and d 8 and 16) and reach each regime by
choosing the residuals, the batch size and the entries instead. Every case keeps each norm at
least 10% away from clip_norm (a draw that misses is drawn again). Values are rounded to two or
three decimals so that the spec stays short to read.

This module is loaded into the judge process: it may import only NumPy, ml_dtypes and pure
standard-library modules, never JAX.
"""

import numpy as np

F32 = np.float32
#: the (d, clip_norm) pairs the cases use; each is one program traced per submission
CONFIGS = ((1, 1.5), (2, 0.5), (2, 1.0), (3, 10.0), (4, 0.05), (8, 2.0), (16, 1.0))
#: the pairs with few features (dyadic exact fits, bias-dominated and large batches use them)
NARROW = tuple(c for c in CONFIGS if c[0] <= 4)
#: how far from clip_norm every norm stays, as a ratio
MARGIN = 1.1


def _round(values, digits=2):
    return np.round(values, digits).astype(F32)


def _pick(rng, configs):
    d, c = configs[int(rng.integers(len(configs)))]
    return d, c


def _norms(w, b, X, y):
    r = X.astype(np.float64) @ w.astype(np.float64) + float(b) - y
    return np.abs(r) * np.sqrt(np.sum(X.astype(np.float64) ** 2, axis=1) + 1.0)


def _with_norms(rng, w, b, X, ratios, c, digits):
    """Targets y that give example i a gradient norm near ratios[i] * c (random signs)."""
    scale = np.sqrt(np.sum(X.astype(np.float64) ** 2, axis=1) + 1.0)
    r = ratios * c / scale * rng.choice([-1.0, 1.0], size=len(ratios))
    return _round(X.astype(np.float64) @ w + float(b) - r, digits)


def _ok(norms, c, low, high):
    """Every norm at least MARGIN away from c, and the clipped count in [low, high]."""
    far = np.all((norms >= c * MARGIN) | (norms <= c / MARGIN))
    clipped = int(np.sum(norms > c))
    return bool(far) and low <= clipped <= high


def _draw(rng, n, d, c, ratio, low, high, x_scale=1.0, w_scale=1.0, digits=3):
    """w, b, X, y with n examples of d features whose norms are ratio(rng, n) * c, drawn again
    until every norm clears the margin and between low and high examples are clipped."""
    while True:
        w = _round(rng.normal(size=d) * w_scale, 2)
        b = np.asarray(_round(rng.normal() * w_scale, 2), F32)
        X = _round(rng.normal(size=(n, d)) * x_scale, 2)
        y = _with_norms(rng, w, b, X, ratio(rng, n), c, digits)
        if _ok(_norms(w, b, X, y), c, low, high):
            return w, b, X, y


def _case(w, b, X, y, clip_norm, note):
    norms = _norms(w, b, X, y)
    clipped = int(np.sum(norms > clip_norm))
    return {"input": {"w": w, "b": b, "X": X, "y": y, "clip_norm": float(clip_norm)},
            "note": f"{note}; n {X.shape[0]}, d {X.shape[1]}, clip_norm {clip_norm:g}, "
                    f"{clipped} of {X.shape[0]} examples clipped"}


def _spread(rng, n):
    """Norm ratios on both sides of 1: log-normal around 1."""
    return np.exp(rng.normal(size=n) * 1.2)


def _above(rng, n):
    return rng.uniform(1.3, 12.0, size=n)


def _below(rng, n):
    return rng.uniform(0.02, 0.85, size=n)


def mixed(rng):
    """n from 2 to 12, any pair of ``CONFIGS``; norms on both sides of clip_norm, so some
    examples are clipped and others are not."""
    n = int(rng.integers(2, 13))
    d, c = _pick(rng, CONFIGS)
    w, b, X, y = _draw(rng, n, d, c, _spread, 1, n - 1)
    return _case(w, b, X, y, c, "some examples clipped")


def all_clipped(rng):
    """Every norm above clip_norm: each gradient is scaled to length clip_norm (the tiny
    clip_norm 0.05 among the pairs)."""
    n = int(rng.integers(1, 11))
    d, c = _pick(rng, CONFIGS)
    w, b, X, y = _draw(rng, n, d, c, _above, n, n)
    return _case(w, b, X, y, c, "every example clipped")


def none_clipped(rng):
    """Every norm below clip_norm: the plain mean gradient."""
    n = int(rng.integers(1, 11))
    d, c = _pick(rng, CONFIGS)
    w, b, X, y = _draw(rng, n, d, c, _below, 0, 0)
    return _case(w, b, X, y, c, "no example clipped")


def bias_dominant(rng):
    """Small features, large residuals: the bias part of each gradient is most of its norm,
    so clipping the weights and the bias separately gives a different answer."""
    n = int(rng.integers(2, 9))
    d, c = _pick(rng, NARROW)
    w, b, X, y = _draw(rng, n, d, c, _spread, 1, n, x_scale=0.2)
    return _case(w, b, X, y, c, "bias-dominated gradients")


def wide_features(rng):
    """Large features, small weights: the weight part dominates; d 8 or 16."""
    n = int(rng.integers(2, 9))
    d, c = _pick(rng, [cfg for cfg in CONFIGS if cfg[0] >= 8])
    w, b, X, y = _draw(rng, n, d, c, _spread, 1, n - 1, x_scale=2.0, w_scale=0.3)
    return _case(w, b, X, y, c, "wide features")


def exact_fits(rng):
    """Some targets equal the prediction exactly (dyadic data): those examples have a zero
    gradient, which must not be divided by its norm; the others are on both sides of
    clip_norm."""
    n = int(rng.integers(2, 9))
    d, c = _pick(rng, NARROW)
    while True:
        w = (rng.integers(-4, 5, size=d) / 2).astype(F32)
        b = np.asarray(rng.integers(-4, 5) / 4, F32)
        X = (rng.integers(-8, 9, size=(n, d)) / 4).astype(F32)
        hit = rng.random(n) < 0.5
        hit[0] = False
        y_fit = (X.astype(np.float64) @ w + float(b)).astype(F32)
        y_off = _with_norms(rng, w, b, X, _spread(rng, n), c, 3)
        y = np.where(hit, y_off, y_fit).astype(F32)
        norms = _norms(w, b, X, y)
        if _ok(norms[hit], c, 0, n) and np.all(norms[~hit] == 0):
            break
    case = _case(w, b, X, y, c, "exact fits")
    case["note"] += f", {n - int(hit.sum())} zero gradients"
    return case


def single_example(rng):
    """n = 1: the mean is the one gradient, clipped or not."""
    d, c = _pick(rng, CONFIGS)
    w, b, X, y = _draw(rng, 1, d, c, _spread, 0, 1)
    return _case(w, b, X, y, c, "one example")


def large_batch(rng):
    """n from 20 to 64, d from 1 to 4, norms spread around clip_norm. (A Python loop over the
    examples is refused by the rules at any n; larger cases would only make it time out first.)"""
    n = int(rng.integers(20, 65))
    d, c = _pick(rng, NARROW)
    w, b, X, y = _draw(rng, n, d, c, _spread, 1, n - 1)
    return _case(w, b, X, y, c, "large batch")


FAMILIES = {"mixed": mixed, "all_clipped": all_clipped, "none_clipped": none_clipped,
            "bias_dominant": bias_dominant, "wide_features": wide_features,
            "exact_fits": exact_fits, "single_example": single_example,
            "large_batch": large_batch}


def _parts(inputs, dtype):
    return (np.asarray(inputs["w"], dtype), dtype(inputs["b"]), np.asarray(inputs["X"], dtype),
            np.asarray(inputs["y"], dtype), dtype(inputs["clip_norm"]))


def float64_joint(inputs, probe):
    """Per-example gradients stacked as (n, d + 1) rows in float64, rows clipped, then mean."""
    w, b, X, y, c = _parts(inputs, np.float64)
    r = X @ w + b - y
    g = np.concatenate([r[:, None] * X, r[:, None]], axis=1)
    g = g / np.maximum(1.0, np.linalg.norm(g, axis=1) / c)[:, None]
    mean = g.mean(axis=0)
    return {"grad_w": mean[:-1].astype(F32), "grad_b": np.asarray(mean[-1], F32)}


def float32_factored(inputs, probe):
    """In float32 with the norm factored, |r| sqrt(|x|^2 + 1), the scale as min(1, c / norm),
    and the mean as a weighted sum of the rows of X divided by n."""
    w, b, X, y, c = _parts(inputs, F32)
    r = (X @ w + b - y).astype(F32)
    norm = (np.abs(r) * np.sqrt(np.sum(X * X, axis=1) + F32(1))).astype(F32)
    with np.errstate(divide="ignore"):
        scale = np.where(norm > c, c / norm, F32(1)).astype(F32)
    s = (r * scale).astype(F32)
    n = F32(X.shape[0])
    return {"grad_w": ((s @ X) / n).astype(F32), "grad_b": np.asarray(np.sum(s) / n, F32)}


def float32_rows(inputs, probe):
    """In float32, example by example: each gradient's norm by np.linalg.norm of the
    concatenated vector, divided by max(1, norm / c), accumulated in order, then / n."""
    w, b, X, y, c = _parts(inputs, F32)
    total = np.zeros(X.shape[1] + 1, F32)
    for x_i, y_i in zip(X, y):
        r = F32(np.dot(x_i, w) + b - y_i)
        g = np.append(r * x_i, r).astype(F32)
        total = (total + g / max(F32(1), F32(np.linalg.norm(g)) / c)).astype(F32)
    mean = total / F32(X.shape[0])
    return {"grad_w": mean[:-1].astype(F32), "grad_b": np.asarray(mean[-1], F32)}


ALTERNATIVES = {"float64_joint": float64_joint, "float32_factored": float32_factored,
                "float32_rows": float32_rows}
