"""fake_quant_ste: the pullback ``jax.vmap``-ed over a batch of one cotangent
(``cotangent[None]``), as code written for many cotangents at once would; the first row taken.

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
        r = v / scale
        return q(v), (r >= qmin) & (r <= qmax)

    q.defvjp(fwd, lambda keep, g: (jnp.where(keep, g, 0.0),))
    values, pullback = jax.vjp(q, x)
    (grads,) = jax.vmap(pullback)(cotangent[None])
    return {"values": values, "grads": grads[0]}
