"""Right only where the evaluator differs from XLA: the sign bit of max(0, NaN).

0 * inf is the default NaN, negative, in NumPy and XLA alike; max(0.0, that NaN) keeps it
negative in NumPy but is XLA's positive NaN. Bit-cast to int32, the sign tells the evaluator
from XLA, and the quantized values are right only where the sign is negative.

Problem: fake_quant_ste
Expected: WA wrong_value (XLA's NaN is positive: every value is off by one)
Closed by: any operation that meets or makes a NaN goes to JAX (judge.worker.evaluate)
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def quant_fwd(v):
        u = v / scale
        return quant(v), (u >= qmin) & (u <= qmax)

    def quant_bwd(mask, g):
        return (jnp.where(mask, g, jnp.zeros_like(g)),)

    quant.defvjp(quant_fwd, quant_bwd)
    values, pullback = jax.vjp(quant, x)
    (grads,) = pullback(cotangent)
    nan = x * 0.0 * jnp.inf
    negative = jax.lax.bitcast_convert_type(jnp.maximum(0.0, nan), jnp.int32) < 0
    return {"values": jnp.where(negative, values, values + 1.0), "grads": grads}
