"""fake_quant_ste: the ``jax.custom_vjp`` function returns a pair, the fake-quantized values and
their ``int32`` codes (a deployment export); the backward rule receives a ``float0`` cotangent
for the codes and ignores it; ``jax.vjp(..., has_aux=True)`` keeps the codes out of the
differentiation.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quantize(v):
        level = jnp.clip(jnp.round(v / scale), qmin, qmax)
        return scale * level, level.astype(jnp.int32)

    def fwd(v):
        return quantize(v), v

    def bwd(v, cts):
        g, _ = cts
        r = v / scale
        return (g * ((r >= qmin) & (r <= qmax)).astype(g.dtype),)

    quantize.defvjp(fwd, bwd)
    values, pullback, codes = jax.vjp(quantize, x, has_aux=True)
    (grads,) = pullback(cotangent)
    del codes
    return {"values": values, "grads": grads}
