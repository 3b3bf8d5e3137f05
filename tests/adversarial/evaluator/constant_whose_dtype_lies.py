"""A constant of a NumPy subclass whose dtype property lies: float64 data (0.1 and a
value past float32's range) that claims to be float32. JAX types the constant by what it
claims; its data reaches the program through JAX's conversion under either evaluator (the NumPy
evaluator takes only arrays whose real dtype is the program's), so both compute the same thing:
the constant minus itself, which is zero where finite, and the values stay right.

Problem: fake_quant_ste
Expected: AC ok
"""
import jax
import jax.numpy as jnp
import numpy as np


class Claims32(np.ndarray):
    @property
    def dtype(self):
        return np.dtype(np.float32)


ODD = np.array([0.1, 3e39], dtype=np.float64).view(Claims32)


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
    zero = jnp.minimum(jnp.abs(ODD - ODD)[0], 1.0)
    return {"values": values + zero, "grads": grads}
