"""fake_quant_ste: the output of the ``jax.custom_vjp`` quantizer clamped again by
``lax.clamp(lo, out, hi)`` with float32 ends (a TensorFlow port's ``clip_by_value``).

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    lo = jnp.float32(qmin * scale)
    hi = jnp.float32(qmax * scale)

    @jax.custom_vjp
    def quantize(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        return quantize(v), v / scale

    def bwd(r, g):
        return (g * ((r >= qmin) & (r <= qmax)),)

    quantize.defvjp(fwd, bwd)
    out, vjp_fn = jax.vjp(quantize, x)
    return {"values": lax.clamp(lo, out, hi), "grads": vjp_fn(cotangent)[0]}
