"""pairwise_sq_dists: ported from a PyTorch helper (``x1.pow(2).sum(-1, keepdim=True)``,
``x2.transpose(-1, -2)``): ``jnp.power(X, 2).sum(-1, keepdims=True)``, ``jnp.swapaxes`` of the
second norms, and the cross term ``jnp.inner(X, Y)``.

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def _sq_cdist(x1, x2):
    x1_norm = jnp.power(x1, 2).sum(-1, keepdims=True)
    x2_norm = jnp.power(x2, 2).sum(-1, keepdims=True)
    res = x1_norm - 2.0 * jnp.inner(x1, x2) + jnp.swapaxes(x2_norm, -1, -2)
    return jnp.clip(res, min=0.0)


def pairwise_sq_dists(X, Y):
    return _sq_cdist(X, Y)
