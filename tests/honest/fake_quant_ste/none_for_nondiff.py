"""A custom_vjp of (x, scale, qmin, qmax) whose rule returns None for the three arguments it does not differentiate."""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quant(v, s, lo, hi):
        return s * jnp.clip(jnp.round(v / s), lo, hi)

    def quant_fwd(v, s, lo, hi):
        u = v / s
        return quant(v, s, lo, hi), (u >= lo) & (u <= hi)

    def quant_bwd(inside, g):
        return jnp.where(inside, g, 0.0), None, None, None

    quant.defvjp(quant_fwd, quant_bwd)
    values, pullback = jax.vjp(lambda v: quant(v, scale, float(qmin), float(qmax)), x)
    return {"values": values, "grads": pullback(cotangent)[0]}
