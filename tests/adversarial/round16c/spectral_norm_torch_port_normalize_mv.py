"""spectral_norm: ported from ``torch.nn.utils.spectral_norm``: a ``normalize(x, dim=0)``
helper (no epsilon), ``torch.mv`` as ``jnp.dot`` of a matrix and a vector, the iteration under
``jax.lax.stop_gradient`` (``torch.no_grad()``) in a ``fori_loop`` and
``sigma = jnp.dot(u, jnp.dot(W, v))``.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def normalize(x, dim=0):
    return x / jnp.linalg.norm(x, axis=dim, keepdims=True)


def mv(mat, vec):
    return jnp.dot(mat, vec)


def spectral_norm(W, u0, K):
    weight_mat = jax.lax.stop_gradient(W)

    def power_iteration(_, uv):
        u, v = uv
        v = normalize(mv(weight_mat.T, u), dim=0)
        u = normalize(mv(weight_mat, v), dim=0)
        return u, v

    v0 = jnp.zeros((W.shape[1],), W.dtype)
    u, v = jax.lax.fori_loop(0, K, power_iteration, (u0, v0))
    return jnp.dot(u, mv(W, v))
