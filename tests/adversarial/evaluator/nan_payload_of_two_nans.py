"""Right only where the evaluator differs from XLA: which NaN a sum of two NaNs keeps.

An array of NaNs plus a scalar NaN of another sign: NumPy keeps the array's NaN, XLA the
scalar's. The sign bit, read through a bit-cast, picks the right or the wrong values.

Problem: fake_quant_ste
Expected: WA wrong_value (XLA keeps the scalar's positive NaN: every value is off by one)
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
    negative_nans = x * 0.0 * jnp.inf
    both = jax.lax.add(negative_nans, jnp.float32(jnp.nan))
    kept_negative = jax.lax.bitcast_convert_type(both, jnp.int32) < 0
    return {"values": jnp.where(kept_negative, values, values + 1.0), "grads": grads}
