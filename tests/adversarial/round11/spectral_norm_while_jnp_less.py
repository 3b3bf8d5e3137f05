"""spectral_norm: a ``lax.while_loop`` tested by ``jnp.less(i, K)``, the state a dict.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def body(s):
        v = Wc.T @ s["u"]
        v = v / jnp.linalg.norm(v)
        u = Wc @ v
        return {"i": s["i"] + 1, "u": u / jnp.linalg.norm(u), "v": v}

    s = jax.lax.while_loop(lambda s: jnp.less(s["i"], K), body,
                           {"i": 0, "u": u0, "v": jnp.zeros(W.shape[1], W.dtype)})
    return s["u"] @ W @ s["v"]
