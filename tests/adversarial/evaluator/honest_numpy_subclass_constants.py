"""Honest: the quantization levels are a constant of a NumPy subclass that carries a label and
refuses NumPy's ufuncs, and the scale is a NumPy float32 scalar of a subclass of its own.

JAX takes the data of such constants when it traces (a view of the array's memory); neither
the judge's evaluation nor XLA calls the subclass's methods.

Problem: fake_quant_ste
Expected: AC ok
"""
import jax
import jax.numpy as jnp
import numpy as np


class Labelled(np.ndarray):
    label = "levels"

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return NotImplemented  # NumPy arithmetic on it is refused; JAX never asks


class Scale(np.float32):
    pass


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    bounds = np.array([qmin, qmax], dtype=np.float32).view(Labelled)
    step = Scale(scale)

    @jax.custom_vjp
    def quant(v):
        return step * jnp.clip(jnp.round(v / step), bounds[0], bounds[1])

    def quant_fwd(v):
        u = v / step
        return quant(v), (u >= bounds[0]) & (u <= bounds[1])

    def quant_bwd(mask, g):
        return (jnp.where(mask, g, jnp.zeros_like(g)),)

    quant.defvjp(quant_fwd, quant_bwd)
    values, pullback = jax.vjp(quant, x)
    (grads,) = pullback(cotangent)
    return {"values": values, "grads": grads}
