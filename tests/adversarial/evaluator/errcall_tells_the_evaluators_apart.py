"""Runs code of its own while the judge evaluates the program, through NumPy's error callback,
and uses it to tell the NumPy evaluator from XLA's.

A weak-typed 1e39 in the program overflows float32 when it is converted: the NumPy evaluator
converts it on every evaluation, JAX only the first time it meets it (then the converted
constant is cached). The callback clears a constant the program adds to its values; the
function resets it to 1 each time it is traced. So the values are right where every
evaluation converts the literal, and off by one where JAX's cache skips the conversion.

Problem: fake_quant_ste
Expected: WA wrong_value (the worker evaluates with NumPy's errors ignored, so the callback
never runs; without that: AC under the NumPy evaluator, WA under JAX's after its first case)
"""
import jax
import jax.numpy as jnp
import numpy as np

OFFSET = np.ones(1, dtype=np.float32)


def _cleared(kind, flag):
    OFFSET[0] = 0.0


np.seterrcall(_cleared)
np.seterr(over="call")


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
    huge = jax.lax.add(x, 1e39)  # converting 1e39 to float32 overflows: the callback runs
    OFFSET[0] = 1.0  # after the conversion made while tracing
    values = values + jnp.minimum(huge, 0.0) * 0.0 + OFFSET
    return {"values": values, "grads": grads}
