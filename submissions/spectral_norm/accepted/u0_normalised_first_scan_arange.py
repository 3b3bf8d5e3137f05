"""spectral_norm, honest: u0 normalised before the loop, a scan over jnp.arange(K), sqrt(sum).

Expected: AC
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Ws = jax.lax.stop_gradient(W)
    u = u0 / jnp.sqrt(jnp.sum(u0 ** 2))

    def step(carry, i):
        u, _ = carry
        v = jnp.matmul(Ws.T, u)
        v = v / jnp.sqrt(jnp.sum(v ** 2))
        u = jnp.matmul(Ws, v)
        u = u / jnp.sqrt(jnp.sum(u ** 2))
        return (u, v), i

    (u, v), _ = jax.lax.scan(step, (u, jnp.zeros((W.shape[1],), jnp.float32)), jnp.arange(K))
    return jnp.einsum("i,ij,j->", u, W, v)
