"""fake_quant_ste: a custom_vjp whose backward rule takes the mask from the host through
``jax.pure_callback``.

Problem: fake_quant_ste
Expected: RJ callback_used
"""
import jax
import jax.numpy as jnp
import numpy as np


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    def host_mask(t):
        r = np.asarray(t) / scale
        return ((r >= qmin) & (r <= qmax)).astype(np.float32)

    @jax.custom_vjp
    def q(t):
        return scale * jnp.clip(jnp.round(t / scale), qmin, qmax)

    def bwd(t, g):
        m = jax.pure_callback(host_mask, jax.ShapeDtypeStruct(t.shape, jnp.float32), t)
        return (g * m,)

    q.defvjp(lambda t: (q(t), t), bwd)
    y, pull = jax.vjp(q, x)
    return {"values": y, "grads": pull(cotangent)[0]}
