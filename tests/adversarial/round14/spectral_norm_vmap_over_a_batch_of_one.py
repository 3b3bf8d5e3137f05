"""spectral_norm: the power iteration written for a batch of starting vectors and run by
``jax.vmap`` over a batch of one (``u0[None]``), the ``fori_loop`` inside the mapped function;
sigma from the stopped vectors of the one row.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _power(W, u0, K):
    def step(_, carry):
        u, _ = carry
        v = W.T @ u
        v = v / jnp.linalg.norm(v)
        u = W @ v
        return u / jnp.linalg.norm(u), v

    return jax.lax.fori_loop(0, K, step, (u0, jnp.zeros(W.shape[1], W.dtype)))


def spectral_norm(W, u0, K):
    us, vs = jax.vmap(_power, in_axes=(None, 0, None))(jax.lax.stop_gradient(W), u0[None], K)
    return us[0] @ W @ vs[0]
