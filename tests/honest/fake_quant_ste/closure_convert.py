"""jax.closure_convert of the quantizer before differentiating it."""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    s = jnp.float32(scale)

    def quantize(v):
        return s * jnp.clip(jnp.round(v / s), qmin, qmax)

    @jax.custom_vjp
    def quant(v):
        return quantize(v)

    def fwd(v):
        return quant(v), v

    def bwd(v, g):
        r = v / s
        return (jnp.where((r >= qmin) & (r <= qmax), g, 0.0),)

    quant.defvjp(fwd, bwd)
    converted, consts = jax.closure_convert(quantize, x)
    assert converted(x, *consts).shape == x.shape
    values, pullback = jax.vjp(quant, x)
    return {"values": values, "grads": pullback(cotangent)[0]}
