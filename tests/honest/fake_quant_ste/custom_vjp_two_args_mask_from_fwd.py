"""A two-argument custom_vjp whose forward saves the mask as the residual."""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    s = jnp.full((), scale, jnp.float32)

    @jax.custom_vjp
    def quant(v, step):
        return step * jnp.clip(jnp.round(v / step), qmin, qmax)

    def fwd(v, step):
        r = v / step
        return quant(v, step), ((r >= qmin) & (r <= qmax), step)

    def bwd(res, g):
        mask, step = res
        return g * mask, jnp.zeros_like(step)

    quant.defvjp(fwd, bwd)
    values, pullback = jax.vjp(lambda v: quant(v, s), x)
    return {"values": values, "grads": pullback(cotangent)[0]}
