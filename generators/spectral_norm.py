"""Case generator for spectral_norm (used by `judge generate`).

Interface (see docs/authors/generate.md, "The generator interface"):

* ``FAMILIES``: family name -> ``draw(rng)``, which returns one candidate case as
  ``{"input": {"W": float32 (m, n), "u0": float32 (m,), "K": int}, "probe": {"cotangent":
  float32 (), "tangent": float32 (m, n)}, "note": str}`` with 1 <= m, n <= 16, entries of W and
  u0 in [-4, 4] (two decimals), 1 <= K <= 64. The spec's constraint ``norm(u0 @ W) >= 0.05 *
  max(1, norm(u0))`` keeps every norm the iteration divides by above 1e-2 (after the first
  step they never shrink); a draw that breaks it is refused by the judge and drawn again.
* ``ALTERNATIVES``: the same iteration in float64 (NumPy), with u and v held constant for the
  derivatives: a case on which it disagrees with the reference beyond the tolerance depends on
  rounding and is rejected.

The families cover few steps on a matrix whose two largest singular values are close (the
iteration has not converged there, so differentiating through the steps gives another
gradient), many steps (converged), K = 1, a rank-one W (converged after one step), one row or
one column, a u0 far from unit norm, and plain random matrices.

This module is loaded into the judge process: it may import only NumPy and pure standard-library
modules, never JAX.
"""

import numpy as np

F32 = np.float32


def _round(a):
    return np.clip(np.round(np.asarray(a, np.float64), 2), -4, 4).astype(F32)


def _dims(rng, low=1, high=16):
    return int(rng.integers(low, high + 1)), int(rng.integers(low, high + 1))


def _case(rng, W, u0, K, note):
    W, u0 = _round(W), _round(u0)
    m, n = W.shape
    return {"input": {"W": W, "u0": u0, "K": int(K)},
            "probe": {"cotangent": _round(rng.uniform(-2, 2)).reshape(()),
                      "tangent": _round(rng.uniform(-1, 1, size=(m, n)))},
            "note": f"{note}; m {m}, n {n}, K {K}"}


def random(rng):
    m, n = _dims(rng)
    return _case(rng, rng.uniform(-4, 4, size=(m, n)), rng.uniform(-4, 4, size=m),
                 int(rng.integers(1, 65)), "random")


def _with_singular_values(rng, m, n, values):
    """A matrix with these leading singular values (the rest small)."""
    k = min(m, n)
    q1, _ = np.linalg.qr(rng.normal(size=(m, m)))
    q2, _ = np.linalg.qr(rng.normal(size=(n, n)))
    s = np.concatenate([values, rng.uniform(0, 0.3, size=max(0, k - len(values)))])[:k]
    return (q1[:, :k] * s) @ q2[:, :k].T


def not_converged(rng):
    m, n = _dims(rng, 2, 12)
    top = rng.uniform(2.0, 3.5)
    W = _with_singular_values(rng, m, n, [top, top * rng.uniform(0.8, 0.97)])
    return _case(rng, W, rng.uniform(-4, 4, size=m), int(rng.integers(1, 4)),
                 "close singular values, few steps: not converged")


def converged(rng):
    m, n = _dims(rng, 2, 16)
    top = rng.uniform(2.0, 3.5)
    W = _with_singular_values(rng, m, n, [top, top * rng.uniform(0.1, 0.5)])
    return _case(rng, W, rng.uniform(-4, 4, size=m), int(rng.integers(40, 65)),
                 "well separated, many steps: converged")


def one_step(rng):
    m, n = _dims(rng, 1, 10)
    return _case(rng, rng.uniform(-4, 4, size=(m, n)), rng.uniform(-4, 4, size=m), 1, "K = 1")


def rank_one(rng):
    m, n = _dims(rng, 1, 12)
    a, b = rng.uniform(-2, 2, size=m), rng.uniform(-2, 2, size=n)
    return _case(rng, np.outer(a, b), rng.uniform(-4, 4, size=m), int(rng.integers(1, 9)),
                 "rank one")


def thin(rng):
    m, n = _dims(rng)
    if rng.random() < 0.5:
        m = 1
    else:
        n = 1
    return _case(rng, rng.uniform(-4, 4, size=(m, n)), rng.uniform(-4, 4, size=m),
                 int(rng.integers(1, 20)), "one row or one column")


def far_from_unit(rng):
    m, n = _dims(rng, 2, 10)
    scale = 0.05 if rng.random() < 0.5 else 4.0
    u0 = rng.uniform(-1, 1, size=m) * scale
    return _case(rng, rng.uniform(-4, 4, size=(m, n)), u0, int(rng.integers(2, 10)),
                 f"u0 of norm far from 1 ({'small' if scale < 1 else 'large'})")


FAMILIES = {f.__name__: f for f in (random, not_converged, converged, one_step, rank_one, thin,
                                    far_from_unit)}


def float64(inputs, probe):
    """The iteration in float64, u and v constants for the derivatives."""
    W = inputs["W"].astype(np.float64)
    u, v = inputs["u0"].astype(np.float64), np.zeros(W.shape[1])
    for _ in range(inputs["K"]):
        v = W.T @ u
        v = v / np.linalg.norm(v)
        u = W @ v
        u = u / np.linalg.norm(u)
    return {"value": np.float32(u @ W @ v),
            "vjp": (np.float64(probe["cotangent"]) * np.outer(u, v)).astype(F32),
            "jvp": np.float32(u @ probe["tangent"].astype(np.float64) @ v)}


ALTERNATIVES = {"float64": float64}
