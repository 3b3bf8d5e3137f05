"""fake_quant_ste: where the mask is off the values are ``x`` clipped to the range's ends (the
end it lies beyond, which is what rounding then clipping gives there); inside they are the
``jax.custom_vjp`` output.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quantize(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        return quantize(v), v

    def bwd(v, g):
        r = v / scale
        return (g * ((r >= qmin) & (r <= qmax)).astype(g.dtype),)

    quantize.defvjp(fwd, bwd)
    out, pullback = jax.vjp(quantize, x)
    (grads,) = pullback(cotangent)
    r = x / scale
    inside = (r >= qmin) & (r <= qmax)
    values = jnp.where(inside, out, jnp.where(r > qmax, qmax * scale, qmin * scale))
    return {"values": values, "grads": grads}
