"""fake_quant_ste: the reference quantizer, its output clipped once more to
``[qmin * scale, qmax * scale]`` by ``jnp.clip`` "to be safe" (a no-op on every value the
function gives).

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
        return (jnp.where((r >= qmin) & (r <= qmax), g, jnp.zeros_like(g)),)

    quantize.defvjp(fwd, bwd)
    out, pullback = jax.vjp(quantize, x)
    (grads,) = pullback(cotangent)
    values = jnp.clip(out, qmin * scale, qmax * scale)
    return {"values": values, "grads": grads}
