"""A lax.switch on an index read from a NumPy array the program closes over, which the submission
rewrites on every call: the traced program reads the array's memory when it runs, not its
value when traced, so a NumPy array is not read as a constant, and both branches count.

Class 1 (pure JAX).
Expected: RJ grads_not_from_backward
Expected with the gate off: RJ grads_not_from_backward
"""
import jax
import jax.numpy as jnp
from jax import lax
import numpy as np

MODE = np.array([1, 0], np.int32)


def index():
    value = jnp.sum(MODE)
    MODE[:] = [0, 0] if MODE[0] else [1, 0]  # the other branch at the next evaluation
    return value


def quantizer(scale, qmin, qmax):
    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        return quant(v), v

    def bwd(v, g):
        u = v / scale
        return (jnp.where((u >= qmin) & (u <= qmax), g, 0.0),)

    quant.defvjp(fwd, bwd)
    return quant


def formula(scale, qmin, qmax):
    """The quantizer's values, and the cotangent times its mask, by a stop_gradient formula."""
    def cheat(v):
        u = v / scale
        mask = ((u >= qmin) & (u <= qmax)).astype(v.dtype)
        q = scale * jnp.clip(jnp.round(u), qmin, qmax)
        return mask * v + lax.stop_gradient(q - mask * v)
    return cheat



def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    branches = [formula(scale, qmin, qmax), quantizer(scale, qmin, qmax)]
    values, pullback = jax.vjp(lambda v: lax.switch(index(), branches, v), x)
    return {"values": values, "grads": pullback(cotangent)[0]}
