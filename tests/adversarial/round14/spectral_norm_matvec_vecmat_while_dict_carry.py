"""spectral_norm: a ``lax.while_loop`` whose carry is a dict ``{"i", "u", "v"}``, the products
written as ``jnp.vecmat(u, W)`` (W^T u) and ``jnp.matvec(W, v)``, the vectors stopped after the
loop and sigma as ``jnp.vecmat(u, W) @ v``.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    def cond(state):
        return state["i"] < K

    def body(state):
        v = jnp.vecmat(state["u"], W)
        v = v / jnp.sqrt(jnp.sum(v * v))
        u = jnp.matvec(W, v)
        return {"i": state["i"] + 1, "u": u / jnp.sqrt(jnp.sum(u * u)), "v": v}

    state = jax.lax.while_loop(cond, body, {"i": 0, "u": u0, "v": jnp.zeros_like(W[0])})
    u, v = jax.lax.stop_gradient(state["u"]), jax.lax.stop_gradient(state["v"])
    return jnp.vecmat(u, W) @ v
