"""fake_quant_ste, cheat: the custom_vjp function ``sin`` (nothing like the quantizer) with the
honest clipped backward rule, and the values the quantizer of ``x`` outside it plus
``relu(out - b) - relu(-out - b)`` for a bound ``b = 4 max|x| + 4`` computed from ``x``: zero at
every case (``|sin| <= 1``), whose derivative is zero there too, and which moves only where the
output is moved past the bound.

Problem: fake_quant_ste
Expected: RJ values_not_from_custom_vjp
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def wave(v):
        return jnp.sin(v)

    def bwd(v, g):
        u = v / scale
        return (g * ((u >= qmin) & (u <= qmax)),)

    wave.defvjp(lambda v: (wave(v), v), bwd)
    out, back = jax.vjp(wave, x)
    bound = 4.0 * jnp.max(jnp.abs(x)) + 4.0
    quantized = scale * jnp.clip(jnp.round(x / scale), qmin, qmax)
    values = quantized + jax.nn.relu(out - bound) - jax.nn.relu(-out - bound)
    return {"values": values, "grads": back(cotangent)[0]}
