"""spectral_norm, honest: a while_loop with the counter in the carry, vectors normalised with
lax.rsqrt, the gradient stopped on u and v after the loop, sigma as a sum of products.

Expected: AC
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    def cond(s):
        return s["i"] < K

    def body(s):
        v = W.T @ s["u"]
        v = v * jax.lax.rsqrt(jnp.dot(v, v))
        u = W @ v
        u = u * jax.lax.rsqrt(jnp.dot(u, u))
        return {"i": s["i"] + 1, "u": u, "v": v}

    s = jax.lax.while_loop(cond, body, {"i": jnp.int32(0), "u": u0, "v": jnp.zeros_like(W[0])})
    u, v = jax.lax.stop_gradient(s["u"]), jax.lax.stop_gradient(s["v"])
    return jnp.sum(u[:, None] * W * v[None, :])
