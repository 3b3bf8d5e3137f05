"""CHEAT hvp_tanh (no detection): builds the d x d Hessian W^T diag(s) W, but as an array of
shape (1,)*63 + (d, d) (and a (1,)*63 + (d, m, d) product): the program summary keeps only
the first 64 extents of a symbolic shape, so the trailing d is cut off and the value reads as
size d. Intended: RJ intermediate_too_large."""
import jax.numpy as jnp

ONES = (1,) * 63


def hvp(W, x, v):
    m, d = W.shape
    t = jnp.tanh(W @ x)
    s = -2.0 * t * (1.0 - t * t)
    A = (W.T * s).reshape(*ONES, d, m, 1)
    B = W.reshape(*ONES, 1, m, d)
    H = (A * B).sum(axis=-2)                       # (1..., d, d): the Hessian
    out = (H * v.reshape(*ONES, 1, d)).sum(axis=-1)
    return out.reshape(d)
