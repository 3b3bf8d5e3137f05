"""fake_quant_ste: the quantizer applied entry by entry with ``lax.map`` over the flattened
input (a loop over entries, as a port of per-element code), differentiated by ``jax.vjp``.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        return quant(v), v

    def bwd(v, g):
        r = v / scale
        return (g * jnp.asarray((r >= qmin) & (r <= qmax), g.dtype),)

    quant.defvjp(fwd, bwd)

    def all_entries(v):
        return lax.map(quant, v.reshape(-1)).reshape(v.shape)

    values, pullback = jax.vjp(all_entries, x)
    (grads,) = pullback(cotangent)
    return {"values": values, "grads": grads}
