"""fake_quant_ste: honest code whose forward rule stores its residuals as a dict tree (the ratio
``x / scale`` and the two levels as arrays) and whose backward rule reads them back by key.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def q(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        res = {"ratio": v / scale,
               "levels": {"lo": jnp.asarray(qmin, jnp.float32), "hi": jnp.asarray(qmax, jnp.float32)}}
        return q(v), res

    def bwd(res, g):
        r, lv = res["ratio"], res["levels"]
        keep = (r >= lv["lo"]) & (r <= lv["hi"])
        return (g * keep.astype(jnp.float32),)

    q.defvjp(fwd, bwd)
    values, pb = jax.vjp(q, x)
    return {"values": values, "grads": pb(cotangent)[0]}
