"""The closed form computed in NumPy through jax.pure_callback: never d x d, numerically right.

Expected verdict: rejected (callbacks are not allowed).
"""
import jax
import numpy as np


def _np_hvp(W, x, v):
    W, x, v = (np.asarray(a, np.float64) for a in (W, x, v))
    t = np.tanh(W @ x)
    return (W.T @ (-2.0 * t * (1.0 - t * t) * (W @ v))).astype(np.float32)


def hvp(W, x, v):
    return jax.pure_callback(_np_hvp, jax.ShapeDtypeStruct(x.shape, x.dtype), W, x, v)
