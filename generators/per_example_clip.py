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
is |r_i| sqrt(|X[i]|^2 + 1). The families place clip_norm against those norms: below all of
them (every example clipped), above all of them (none clipped), in between (some clipped), and
with a bias part that dominates (clipping the bias on its own differs most there). Values are
rounded to two or three decimals so that the spec stays short to read.

This module is loaded into the judge process: it may import only NumPy, ml_dtypes and pure
standard-library modules, never JAX.
"""

import numpy as np

F32 = np.float32


def _round(values, digits=2):
    return np.round(values, digits).astype(F32)


def _draw(rng, n, d, x_scale=1.0, w_scale=1.0, noise=1.0, digits=2):
    w = _round(rng.normal(size=d) * w_scale, digits)
    b = _round(rng.normal() * w_scale, digits)
    X = _round(rng.normal(size=(n, d)) * x_scale, digits)
    y = _round(X.astype(np.float64) @ w + b + rng.normal(size=n) * noise, digits)
    return w, np.asarray(b, F32), X, y


def _norms(w, b, X, y):
    r = X.astype(np.float64) @ w.astype(np.float64) + float(b) - y
    return np.abs(r) * np.sqrt(np.sum(X.astype(np.float64) ** 2, axis=1) + 1.0)


def _case(w, b, X, y, clip_norm, note):
    norms = _norms(w, b, X, y)
    clipped = int(np.sum(norms > clip_norm))
    return {"input": {"w": w, "b": b, "X": X, "y": y, "clip_norm": float(clip_norm)},
            "note": f"{note}; n {X.shape[0]}, d {X.shape[1]}, clip_norm {clip_norm:g}, "
                    f"{clipped} of {X.shape[0]} examples clipped"}


def _between(rng, norms):
    """A clip_norm strictly between the smallest and largest norm, rounded to 2 decimals."""
    lo, hi = float(np.min(norms)), float(np.max(norms))
    if hi - lo < 0.05:
        return round(max(hi, 0.02) * 0.5, 2)
    return max(round(float(rng.uniform(lo + 0.01, hi - 0.01)), 2), 0.01)


def mixed(rng):
    """n from 2 to 12, d from 1 to 6; clip_norm between the smallest and largest per-example
    norm, so some examples are clipped and others are not."""
    n, d = int(rng.integers(2, 13)), int(rng.integers(1, 7))
    w, b, X, y = _draw(rng, n, d)
    return _case(w, b, X, y, _between(rng, _norms(w, b, X, y)), "some examples clipped")


def all_clipped(rng):
    """clip_norm below every per-example norm: each gradient is scaled to length clip_norm."""
    n, d = int(rng.integers(1, 11)), int(rng.integers(1, 7))
    w, b, X, y = _draw(rng, n, d)
    c = round(float(np.min(_norms(w, b, X, y))) * float(rng.uniform(0.1, 0.9)), 3)
    return _case(w, b, X, y, max(c, 0.001), "every example clipped")


def none_clipped(rng):
    """clip_norm above every per-example norm: the plain mean gradient."""
    n, d = int(rng.integers(1, 11)), int(rng.integers(1, 7))
    w, b, X, y = _draw(rng, n, d, noise=0.5)
    c = round(float(np.max(_norms(w, b, X, y))) * float(rng.uniform(1.2, 3.0)) + 0.01, 2)
    return _case(w, b, X, y, c, "no example clipped")


def bias_dominant(rng):
    """Small features, large residuals: the bias part of each gradient is most of its norm,
    so clipping the weights and the bias separately gives a different answer."""
    n, d = int(rng.integers(2, 9)), int(rng.integers(1, 5))
    w, b, X, y = _draw(rng, n, d, x_scale=0.2, noise=3.0)
    return _case(w, b, X, y, round(float(rng.uniform(0.2, 1.5)), 2), "bias-dominated gradients")


def wide_features(rng):
    """Large features, small residuals: the weight part dominates; d up to 16."""
    n, d = int(rng.integers(2, 9)), int(rng.integers(8, 17))
    w, b, X, y = _draw(rng, n, d, x_scale=2.0, w_scale=0.3, noise=0.3)
    return _case(w, b, X, y, _between(rng, _norms(w, b, X, y)), "wide features")


def exact_fits(rng):
    """Some targets equal the prediction exactly (dyadic data): those examples have a zero
    gradient, which must not be divided by its norm."""
    n, d = int(rng.integers(2, 9)), int(rng.integers(1, 5))
    w = (rng.integers(-4, 5, size=d) / 2).astype(F32)
    b = np.asarray(rng.integers(-4, 5) / 4, F32)
    X = (rng.integers(-8, 9, size=(n, d)) / 4).astype(F32)
    y = (X.astype(np.float64) @ w + float(b)).astype(F32)
    hit = rng.random(n) < 0.5
    hit[0] = False
    y = np.where(hit, y + _round(rng.normal(size=n) * 2.0, 2), y).astype(F32)
    c = round(float(rng.uniform(0.1, 2.0)), 2)
    case = _case(w, b, X, y, c, "exact fits")
    case["note"] += f", {n - int(hit.sum())} zero gradients"
    return case


def single_example(rng):
    """n = 1: the mean is the one clipped gradient."""
    d = int(rng.integers(1, 9))
    w, b, X, y = _draw(rng, 1, d, noise=2.0)
    return _case(w, b, X, y, round(float(rng.uniform(0.1, 3.0)), 2), "one example")


def large_batch(rng):
    """n from 20 to 48, d from 1 to 4, clip_norm near the median norm. (A Python loop over the
    examples is refused by the rules at any n; larger cases would only make it time out first.)"""
    n, d = int(rng.integers(20, 49)), int(rng.integers(1, 5))
    w, b, X, y = _draw(rng, n, d)
    c = max(round(float(np.median(_norms(w, b, X, y))), 2), 0.01)
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
