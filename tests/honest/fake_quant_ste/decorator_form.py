"""The quantizer as a @jax.custom_vjp decorated closure, differentiated with jax.vjp."""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quantize(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def quantize_fwd(v):
        return quantize(v), v

    def quantize_bwd(v, g):
        u = v / scale
        return (g * ((u >= qmin) & (u <= qmax)).astype(g.dtype),)

    quantize.defvjp(quantize_fwd, quantize_bwd)
    values, pullback = jax.vjp(quantize, x)
    (grads,) = pullback(cotangent)
    return {"values": values, "grads": grads}
