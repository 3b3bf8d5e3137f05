"""spectral_norm: a ``jax.lax.while_loop`` with a dict carry (``{"i", "u", "v"}``), norms by
``jnp.linalg.norm(..., ord=None)``, ``sigma = jnp.inner(u, W @ v)`` with ``u`` and ``v``
stopped.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Ws = jax.lax.stop_gradient(W)

    def cond(state):
        return state["i"] < K

    def body(state):
        v = Ws.T @ state["u"]
        v = v / jnp.linalg.norm(v, ord=None)
        u = Ws @ v
        u = u / jnp.linalg.norm(u, ord=None)
        return {"i": state["i"] + 1, "u": u, "v": v}

    init = {"i": jnp.int32(0), "u": u0, "v": jnp.zeros(W.shape[1], jnp.float32)}
    out = jax.lax.while_loop(cond, body, init)
    u, v = jax.lax.stop_gradient(out["u"]), jax.lax.stop_gradient(out["v"])
    return jnp.inner(u, W @ v)
