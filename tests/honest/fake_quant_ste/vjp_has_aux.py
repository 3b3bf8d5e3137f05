"""jax.vjp with has_aux=True."""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        return quant(v), v

    def bwd(v, g):
        r = v / scale
        return (jnp.where((r >= qmin) & (r <= qmax), g, 0.0),)

    quant.defvjp(fwd, bwd)

    def with_aux(v):
        q = quant(v)
        return q, {"clipped": jnp.sum(jnp.abs(q) >= scale * max(abs(qmin), abs(qmax)))}

    values, pullback, aux = jax.vjp(with_aux, x, has_aux=True)
    del aux
    return {"values": values, "grads": pullback(cotangent)[0]}
