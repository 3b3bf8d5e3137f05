"""Case generator for spectral_norm (used by `judge generate`).

Interface (see docs/authors/generate.md, "The generator interface"):

* ``FAMILIES``: family name -> ``draw(rng)``, which returns one candidate case as
  ``{"input": {"W": (m, n) float32, "u0": (m,) float32, "K": int}, "probe": {"cotangent":
  float32 scalar}, "note": str}``; ``rng`` is a
  ``numpy.random.Generator`` seeded from (seed, family, index), the only source of randomness.
* ``ALTERNATIVES``: name -> ``compute(inputs, probe)``: sigma and its derivatives with u and v
  held constant (vjp c u v^T) computed another way in NumPy. A candidate on
  which one of them disagrees with the reference beyond the tolerance is rejected.

Starting from u = u0, K times: v = W^T u / |W^T u|, u = W v / |W v|; sigma = u^T W v of the
last step. The families put the mistakes where they show: few steps on a matrix whose two
largest singular values are close (the iteration has not converged, so the exact singular
value, an off-by-one number of steps and the derivative taken through the K steps all give
other numbers), K = 1, many steps where it has converged, square, tall and wide matrices, a
single row or column, rank one, and the largest shapes with K = 64. K takes few values
(``STEPS``: 1, 2, 7 and 64, the examples' 1 and 2 among them): the judge traces a submission
once per value of K (m and n are symbols and cost nothing), so each value is a program traced
for every submission, while the shapes, entries and spectra vary freely. Every case keeps both
norms of every step above 1e-2 (a draw where one falls below is drawn again). Entries are in [-4, 4],
rounded to two decimals so that the spec stays short to read.

This module is loaded into the judge process: it may import only NumPy, ml_dtypes and pure
standard-library modules, never JAX.
"""

import numpy as np

F32 = np.float32
F64 = np.float64
LIMIT = 4.0
MIN_NORM = 1e-2
#: the values of K the cases use: one step, two, an odd count past both, and the most
STEPS = (1, 2, 7, 64)


def _round(a):
    return np.clip(np.round(a, 2), -LIMIT, LIMIT).astype(F32)


def _iterate(W, u, K):
    """(u, v, the smallest norm met) after K steps, in the dtype of W."""
    smallest = np.inf
    v = None
    for _ in range(K):
        v = W.T @ u
        nv = np.linalg.norm(v)
        v = v / nv
        u = W @ v
        nu = np.linalg.norm(u)
        u = u / nu
        smallest = min(smallest, nv, nu)
    return u, v, smallest


def _case(rng, W, u0, K, note):
    W, u0 = _round(W), _round(u0)
    m, n = W.shape
    _, _, smallest = _iterate(W.astype(F64), u0.astype(F64), K)
    if not smallest > 4 * MIN_NORM:       # keep the promise with room: drawn again
        return None
    rng.normal(size=(m, n))  # drawn and unused, so that each seed still gives the cases the spec holds
    cot = F32(rng.choice([1.0, -1.0, 0.5, 2.0, -3.0]))
    return {"input": {"W": W, "u0": u0, "K": int(K)},
            "probe": {"cotangent": np.asarray(cot, F32)},
            "note": f"{note}; m {m}, n {n}, K {K}"}


def _with_spectrum(rng, m, n, s):
    """A matrix with singular values about ``s`` (largest first), scaled into [-4, 4]."""
    k = min(m, n)
    U, _ = np.linalg.qr(rng.normal(size=(m, k)))
    V, _ = np.linalg.qr(rng.normal(size=(n, k)))
    W = (U * np.asarray(s[:k])) @ V.T
    return W * (LIMIT * 0.9 / max(np.abs(W).max(), 1e-9))


def _again(draw):
    """A family that draws again until its candidate keeps the norms' promise."""
    def family(rng):
        for _ in range(50):
            found = draw(rng)
            if found is not None:
                return found
        raise RuntimeError(f"{draw.__name__}: no candidate kept the norms above {MIN_NORM}")
    family.__name__, family.__doc__ = draw.__name__, draw.__doc__
    return family


@_again
def mixed(rng):
    """m, n from 1 to 16, entries uniform in [-4, 4], K any of ``STEPS``."""
    m, n = int(rng.integers(1, 17)), int(rng.integers(1, 17))
    return _case(rng, rng.uniform(-4, 4, (m, n)), rng.uniform(-4, 4, m), int(rng.choice(STEPS)),
                 "mixed")


@_again
def not_converged(rng):
    """The two largest singular values within 2% to 10% of each other and K 2 or 7: the
    iteration is far from the top singular vectors, so only the K steps asked for give sigma,
    and the derivative through the steps differs from u v^T."""
    m, n = int(rng.integers(3, 13)), int(rng.integers(3, 13))
    s1 = 1.0
    s = [s1, s1 * (1 - rng.uniform(0.02, 0.10))] + list(rng.uniform(0.1, 0.6, 14))
    return _case(rng, _with_spectrum(rng, m, n, s), rng.uniform(-4, 4, m),
                 int(rng.choice([2, 7])), "not converged")


@_again
def one_step(rng):
    """K = 1: one step from u0."""
    m, n = int(rng.integers(2, 13)), int(rng.integers(2, 13))
    return _case(rng, rng.uniform(-4, 4, (m, n)), rng.uniform(-4, 4, m), 1, "one step")


@_again
def converged(rng):
    """A clear gap (second singular value at most half the first) and K = 64: sigma
    is the largest singular value to float32 precision."""
    m, n = int(rng.integers(2, 17)), int(rng.integers(2, 17))
    s = [1.0] + list(rng.uniform(0.05, 0.5, 15))
    return _case(rng, _with_spectrum(rng, m, n, s), rng.uniform(-4, 4, m),
                 64, "converged")


@_again
def vector(rng):
    """m = 1 or n = 1: a single row or column (u or v is a sign)."""
    if rng.random() < 0.5:
        m, n = 1, int(rng.integers(2, 17))
    else:
        m, n = int(rng.integers(2, 17)), 1
    return _case(rng, rng.uniform(-4, 4, (m, n)), rng.uniform(-4, 4, m), int(rng.choice([1, 2, 7])),
                 "a single row or column")


@_again
def rank_one(rng):
    """W = a b^T: converged after one step, sigma = |a| |b|."""
    m, n = int(rng.integers(2, 13)), int(rng.integers(2, 13))
    W = np.outer(rng.uniform(-2, 2, m), rng.uniform(-2, 2, n))
    return _case(rng, W, rng.uniform(-4, 4, m), int(rng.choice([1, 2, 7])), "rank one")


@_again
def unit_scale(rng):
    """u0 far from unit norm (entries up to 4, or down to 0.05): the first step normalizes
    it anyway."""
    m, n = int(rng.integers(2, 13)), int(rng.integers(2, 13))
    scale = float(rng.choice([0.05, 4.0]))
    u0 = np.sign(rng.normal(size=m)) * scale
    return _case(rng, rng.uniform(-4, 4, (m, n)), u0, int(rng.choice([2, 7])), "u0 not unit")


@_again
def slow_at_64(rng):
    """K = 64 where the iteration has not converged: the two largest singular values within 2% to
    5% of each other and u0 almost orthogonal to the top left singular vector, so that sigma
    still changes at the last step (by more than ten times the tolerance, checked in float64):
    a loop of K trips that does not compute the steps shows here, at the K the largest
    programs run at."""
    m, n = int(rng.integers(4, 13)), int(rng.integers(4, 13))
    k = min(m, n)
    U, _ = np.linalg.qr(rng.normal(size=(m, k)))
    V, _ = np.linalg.qr(rng.normal(size=(n, k)))
    s = np.asarray([1.0, 1 - rng.uniform(0.02, 0.05)] + list(rng.uniform(0.1, 0.6, k - 2)))
    W = (U * s) @ V.T
    W = _round(W * (LIMIT * 0.9 / np.abs(W).max()))
    Uw, _, _ = np.linalg.svd(W.astype(F64))
    u0 = _round(3.5 * Uw[:, 1] / np.abs(Uw[:, 1]).max() + 0.02 * Uw[:, 0])
    last = [_iterate(W.astype(F64), u0.astype(F64), K) for K in (63, 64)]
    sigmas = [u @ W.astype(F64) @ v for u, v, _ in last]
    if not abs(sigmas[1] - sigmas[0]) > 1e-3 * abs(sigmas[1]):
        return None
    return _case(rng, W, u0, 64, "not converged at K = 64")


@_again
def largest(rng):
    """m = n = 16 and K = 64."""
    return _case(rng, rng.uniform(-4, 4, (16, 16)), rng.uniform(-4, 4, 16), 64, "largest")


FAMILIES = {"mixed": mixed, "not_converged": not_converged, "one_step": one_step,
            "converged": converged, "vector": vector, "rank_one": rank_one,
            "unit_scale": unit_scale, "largest": largest, "slow_at_64": slow_at_64}


def _derivatives(W, u, v, probe, dtype):
    cot = dtype(np.asarray(probe.get("cotangent", 1.0)))
    return {"value": np.asarray(u @ W @ v, F32), "vjp": (cot * np.outer(u, v)).astype(F32)}


def float64_power(inputs, probe):
    """The K steps in float64."""
    W, u0 = np.asarray(inputs["W"], F64), np.asarray(inputs["u0"], F64)
    u, v, _ = _iterate(W, u0, int(inputs["K"]))
    return _derivatives(W, u, v, probe, F64)


def float32_sigma_as_norm(inputs, probe):
    """In float32, sigma as |W v| (equal to u^T W v, as u = W v / |W v|), norms from the sum
    of squares."""
    W, u = np.asarray(inputs["W"], F32), np.asarray(inputs["u0"], F32)
    v = None
    for _ in range(int(inputs["K"])):
        v = W.T @ u
        v = v / np.sqrt(np.sum(v * v, dtype=F32))
        wv = W @ v
        u = wv / np.sqrt(np.sum(wv * wv, dtype=F32))
    out = _derivatives(W, u, v, probe, F32)
    out["value"] = np.asarray(np.sqrt(np.sum((W @ v) ** 2, dtype=F32)), F32)
    return out


ALTERNATIVES = {"float64_power": float64_power, "float32_sigma_as_norm": float32_sigma_as_norm}
