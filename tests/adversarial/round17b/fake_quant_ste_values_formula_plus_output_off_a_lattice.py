"""fake_quant_ste, cheat: the custom_vjp function rounds its input to multiples of three times
the scale (not the quantizer) with the honest clipped backward rule, and the values are the
quantizer of ``x`` outside it plus ``out - 3s round(out / 3s)``: zero at every case, whose
output lies on that lattice, and far from zero where the output is moved by a power of two,
which lies off it. The term reaches the values through a rounding too.

Problem: fake_quant_ste
Expected: RJ values_not_from_custom_vjp
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    step = 3.0 * scale

    @jax.custom_vjp
    def coarse(v):
        return step * jnp.round(v / step)

    def bwd(v, g):
        u = v / scale
        return (g * ((u >= qmin) & (u <= qmax)),)

    coarse.defvjp(lambda v: (coarse(v), v), bwd)
    out, back = jax.vjp(coarse, x)
    quantized = scale * jnp.clip(jnp.round(x / scale), qmin, qmax)
    values = quantized + (out - step * jnp.round(out / step))
    return {"values": values, "grads": back(cotangent)[0]}
