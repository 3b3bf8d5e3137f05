"""spectral_norm: the power iteration inside ``with jax.named_scope("power") as open:`` (the
context's value bound to a local ``open`` and never used), then ``u @ W @ v``.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def step(_, carry):
        u, _ = carry
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        return u / jnp.linalg.norm(u), v

    with jax.named_scope("power") as open:
        u, v = jax.lax.fori_loop(0, K, step, (u0, jnp.zeros(W.shape[1], W.dtype)))
    del open
    return u @ W @ v
