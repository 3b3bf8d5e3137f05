"""spectral_norm, honest: lax.scan over jnp.arange(K) that emits the estimate of every step as
its ys, sigma the last of them; only W's last use is differentiated (the carry stopped).

Expected: AC
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    def step(u, _):
        u = jax.lax.stop_gradient(u)
        Wc = jax.lax.stop_gradient(W)
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        u = u / jnp.linalg.norm(u)
        return u, u @ W @ v

    _, sigmas = jax.lax.scan(step, u0, jnp.arange(K))
    return sigmas[-1]
