"""Case generator for pairwise_sq_dists (used by `judge generate`).

Interface (see docs/authors/generate.md, "The generator interface"):

* ``FAMILIES``: family name -> ``draw(rng)``, which returns one candidate case as
  ``{"input": {"X": (n, d), "Y": (m, d)}, "probe": {"cotangent": (n, m)}, "note": str}``;
  ``rng`` is a ``numpy.random.Generator`` seeded from (seed, family, index), the only source
  of randomness.
* ``ALTERNATIVES``: name -> ``compute(inputs, probe)``: the distances and their vjp with respect
  to X and to Y computed another legitimate way in NumPy, ``{"value": D, "vjp": {"X": gX,
  "Y": gY}}``. A candidate on which one of them disagrees with the reference beyond the
  tolerance (rtol 1e-5, atol 1e-3) depends on rounding and is rejected: the direct form
  sum_k (x_k - y_k)^2 and the expansion |x|^2 + |y|^2 - 2 x.y must both be right on every case.

D[i, j] = sum_k (X[i, k] - Y[j, k])^2. With cotangent G, the vjp is
gX = 2 (rowsum(G) * X - G @ Y) and gY = 2 (colsum(G) * Y - G.T @ X).

The families cover what the statement names: rectangular shapes (n != m, so a transposed
result has the wrong shape), a single point on either side, rows of zeros (the norm's
derivative at 0), points shared by X and Y (D = 0 exactly, on dyadic data where every
computation is exact), close points (where the expansion loses digits, kept only while it
stays within the tolerance), far points (the largest distances) and the largest shapes.
Entries lie in [-4, 4], rounded to two decimals (three for close points) or to multiples of
1/4, so the spec stays short to read.

This module is loaded into the judge process: it may import only NumPy, ml_dtypes and pure
standard-library modules, never JAX.
"""

import numpy as np

F32 = np.float32
F64 = np.float64
LIMIT = 4.0
DIRECTIONS = [-2.0, -1.0, -0.5, 0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0]   # never all ones


def _uniform(rng, shape, digits=2, scale=LIMIT):
    return np.clip(np.round(rng.uniform(-scale, scale, size=shape), digits), -LIMIT, LIMIT).astype(F32)


def _dyadic(rng, shape):
    """Multiples of 1/4 in [-4, 4]: every square, sum and product below is exact in float32."""
    return (rng.integers(-16, 17, size=shape) / 4.0).astype(F32)


def _cotangent(rng, n, m):
    """Half the entries from a few exact values (zeros and negatives included), half random."""
    picked = np.array(DIRECTIONS, F64)[rng.integers(len(DIRECTIONS), size=(n, m))]
    drawn = np.round(rng.normal(size=(n, m)) * 1.5, 2)
    return np.where(rng.random((n, m)) < 0.5, picked, drawn).astype(F32)


def _dims(rng, lo=1, hi=10, d_lo=1, d_hi=6, distinct=False):
    n, m = int(rng.integers(lo, hi + 1)), int(rng.integers(lo, hi + 1))
    while distinct and n == m:
        m = int(rng.integers(lo, hi + 1))
    return n, m, int(rng.integers(d_lo, d_hi + 1))


def _case(rng, X, Y, note):
    n, m, d = X.shape[0], Y.shape[0], X.shape[1]
    return {"input": {"X": X, "Y": Y}, "probe": {"cotangent": _cotangent(rng, n, m)},
            "note": f"{note}; n {n}, m {m}, d {d}"}


def mixed(rng):
    """n, m from 1 to 10, d from 1 to 6, entries uniform in [-4, 4]."""
    n, m, d = _dims(rng)
    return _case(rng, _uniform(rng, (n, d)), _uniform(rng, (m, d)), "uniform points")


def rectangular(rng):
    """n != m: a result of shape (m, n) is refused by its shape alone."""
    n, m, d = _dims(rng, 1, 14, 2, 8, distinct=True)
    return _case(rng, _uniform(rng, (n, d)), _uniform(rng, (m, d)), "n differs from m")


def single_point(rng):
    """One point on one side (or both): n = 1 or m = 1."""
    n, m, d = _dims(rng, 1, 12, 1, 8)
    which = int(rng.integers(3))
    n, m = (1, m) if which == 0 else (n, 1) if which == 1 else (1, 1)
    return _case(rng, _uniform(rng, (n, d)), _uniform(rng, (m, d)), "a single point")


def zero_rows(rng):
    """Some rows of X and of Y are all zeros: |x| = 0 there, where a norm has no derivative."""
    n, m, d = _dims(rng, 2, 10, 1, 6)
    X, Y = _uniform(rng, (n, d)), _uniform(rng, (m, d))
    X[rng.random(n) < 0.4] = 0.0
    Y[rng.random(m) < 0.4] = 0.0
    X[int(rng.integers(n))] = 0.0
    Y[int(rng.integers(m))] = 0.0
    return _case(rng, X, Y, f"{int((~X.any(1)).sum())} zero rows in X, "
                            f"{int((~Y.any(1)).sum())} in Y")


def shared_points(rng):
    """Dyadic points, some rows of Y copied from rows of X: D is exactly 0 where they meet,
    and every computation (direct, expanded, float32 or float64) is exact."""
    n, m, d = _dims(rng, 2, 10, 1, 8)
    X, Y = _dyadic(rng, (n, d)), _dyadic(rng, (m, d))
    for j in range(m):
        if rng.random() < 0.5:
            Y[j] = X[int(rng.integers(n))]
    Y[int(rng.integers(m))] = X[int(rng.integers(n))]
    shared = int(sum((X[i] == Y[j]).all() for i in range(n) for j in range(m)))
    return _case(rng, X, Y, f"dyadic, {shared} pairs of equal points")


def close_points(rng):
    """Rows of Y within 0.01 to 0.05 of rows of X (three decimals): the expansion
    |x|^2 + |y|^2 - 2 x.y cancels there and keeps only a few correct digits. Every pair is
    either equal or at least 2e-4 apart in D, well above the expansion's rounding error
    (about 1e-5 here), so an expansion clamped at zero never clamps a positive distance to 0
    (whose gradient 2 (x - y) g would then be lost)."""
    n, m, d = _dims(rng, 2, 10, 1, 12)
    X = _uniform(rng, (n, d), 3)
    src = rng.integers(n, size=m)
    scale = float(rng.choice([0.01, 0.02, 0.05]))
    Y = np.clip(np.round(X[src].astype(F64) + rng.normal(size=(m, d)) * scale, 3),
                -LIMIT, LIMIT).astype(F32)
    D = np.sum((X.astype(F64)[:, None, :] - Y.astype(F64)[None, :, :]) ** 2, axis=-1)
    tiny = (D > 0) & (D < 2e-4)
    for j in np.nonzero(tiny.any(axis=0))[0]:
        Y[j] = X[src[j]]                      # too close to tell from rounding: make it equal
    return _case(rng, X, Y, f"close points (offsets about {scale:g})")


def far_points(rng):
    """Entries near +-4 with opposite signs: distances up to 64 d, where the relative
    tolerance matters."""
    n, m, d = _dims(rng, 1, 8, 4, 16)
    X = np.round(rng.uniform(3.0, 4.0, size=(n, d)), 2).astype(F32)
    Y = np.round(rng.uniform(-4.0, -3.0, size=(m, d)), 2).astype(F32)
    flip = rng.random(d) < 0.5
    X[:, flip], Y[:, flip] = -X[:, flip], -Y[:, flip]
    return _case(rng, X, Y, "far points")


def large(rng):
    """n and m from 16 to 32, d from 8 to 16: the largest shapes, where n * m * d elements
    would break the size bound."""
    n, m, d = _dims(rng, 16, 32, 8, 16)
    return _case(rng, _uniform(rng, (n, d), 1), _uniform(rng, (m, d), 1), "large shapes")


FAMILIES = {"mixed": mixed, "rectangular": rectangular, "single_point": single_point,
            "zero_rows": zero_rows, "shared_points": shared_points,
            "close_points": close_points, "far_points": far_points, "large": large}


def _parts(inputs, probe, dtype):
    return (np.asarray(inputs["X"], dtype), np.asarray(inputs["Y"], dtype),
            np.asarray(probe["cotangent"], dtype) if probe else None)


def _result(D, gX, gY):
    out = {"value": np.asarray(D, F32)}
    if gX is not None:
        out["vjp"] = {"X": np.asarray(gX, F32), "Y": np.asarray(gY, F32)}
    return out


def float64_direct(inputs, probe):
    """In float64, the direct form: D from the (n, m, d) differences, the vjp as
    2 sum_j G[i, j] (X[i] - Y[j]) and 2 sum_i G[i, j] (Y[j] - X[i])."""
    X, Y, G = _parts(inputs, probe, F64)
    diff = X[:, None, :] - Y[None, :, :]
    D = np.sum(diff * diff, axis=-1)
    if G is None:
        return _result(D, None, None)
    return _result(D, 2.0 * np.einsum("ij,ijk->ik", G, diff), -2.0 * np.einsum("ij,ijk->jk", G, diff))


def float32_direct(inputs, probe):
    """In float32, the direct form, feature by feature (no cancellation for close points)."""
    X, Y, G = _parts(inputs, probe, F32)
    D = np.zeros((X.shape[0], Y.shape[0]), F32)
    gX, gY = np.zeros_like(X), np.zeros_like(Y)
    for k in range(X.shape[1]):
        diff = (X[:, k][:, None] - Y[:, k][None, :]).astype(F32)
        D = (D + diff * diff).astype(F32)
        if G is not None:
            gX[:, k] = F32(2) * np.sum(G * diff, axis=1, dtype=F32)
            gY[:, k] = F32(-2) * np.sum(G * diff, axis=0, dtype=F32)
    return _result(D, gX if G is not None else None, gY)


def float32_expanded(inputs, probe):
    """In float32, the expansion |x|^2 + |y|^2 - 2 x.y and its vjp
    2 (rowsum(G) X - G Y), 2 (colsum(G) Y - G^T X), as the matmul solutions compute them."""
    X, Y, G = _parts(inputs, probe, F32)
    D = (np.sum(X * X, 1)[:, None] + np.sum(Y * Y, 1)[None, :] - F32(2) * (X @ Y.T)).astype(F32)
    if G is None:
        return _result(D, None, None)
    gX = F32(2) * (np.sum(G, 1)[:, None] * X - G @ Y)
    gY = F32(2) * (np.sum(G, 0)[:, None] * Y - G.T @ X)
    return _result(D, gX, gY)


def float32_expanded_clamped(inputs, probe):
    """The expansion clamped at zero, max(D, 0), as scikit-learn's euclidean_distances does:
    where rounding makes D negative the clamp zeroes its gradient; a case on which that
    matters beyond the tolerance is not kept."""
    X, Y, G = _parts(inputs, probe, F32)
    D = (np.sum(X * X, 1)[:, None] + np.sum(Y * Y, 1)[None, :] - F32(2) * (X @ Y.T)).astype(F32)
    if G is None:
        return _result(np.maximum(D, F32(0)), None, None)
    G = np.where(D >= 0, G, F32(0)).astype(F32)
    gX = F32(2) * (np.sum(G, 1)[:, None] * X - G @ Y)
    gY = F32(2) * (np.sum(G, 0)[:, None] * Y - G.T @ X)
    return _result(np.maximum(D, F32(0)), gX, gY)


ALTERNATIVES = {"float64_direct": float64_direct, "float32_direct": float32_direct,
                "float32_expanded": float32_expanded,
                "float32_expanded_clamped": float32_expanded_clamped}
