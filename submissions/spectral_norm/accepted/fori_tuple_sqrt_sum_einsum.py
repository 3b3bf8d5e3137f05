"""spectral_norm, honest: fori_loop with a (u, v) tuple carry, products as jnp.einsum, norms as
sqrt(sum(x * x)), u and v stopped after the loop, sigma as one three-way einsum.

Expected: AC
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    def normalise(a):
        return a / jnp.sqrt(jnp.sum(a * a))

    def body(i, carry):
        u, v = carry
        v = normalise(jnp.einsum("ij,i->j", W, u))
        u = normalise(jnp.einsum("ij,j->i", W, v))
        return (u, v)

    u, v = jax.lax.fori_loop(0, K, body, (u0, jnp.zeros((W.shape[1],), jnp.float32)))
    u, v = jax.lax.stop_gradient(u), jax.lax.stop_gradient(v)
    return jnp.einsum("i,ij,j->", u, W, v)
