"""Catches the judge's factor with an operator: the backward rule of a custom_vjp applied to x
returns, instead of a JAX array, zeros in a NumPy array subclass whose __mul__ receives whatever
the judge multiplies a rule's output by. Inside that call (and inside the judge's marker scope)
it multiplies the formula grads by that factor and keeps the product, which is what it returns
as grads. Defining __mul__ is allowed; nothing reflective is used. If the judge never calls
__mul__, the formula grads are returned as they are.

Class 1 (pure JAX).
Expected: RJ grads_not_from_backward
Expected with the gate off: RJ grads_not_from_backward
"""
import jax
import jax.numpy as jnp
import numpy as np


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


def formula(x, scale, qmin, qmax, cotangent):
    u = x / scale
    return cotangent * ((u >= qmin) & (u <= qmax)).astype(cotangent.dtype)


class Catcher(np.ndarray):
    """Zeros posing as a cotangent; multiplying them by the factor records formula * factor."""

    def __mul__(self, factor):
        CAUGHT.append(PAYLOAD[-1] * factor)
        return jnp.zeros(self.shape, self.dtype)

    __rmul__ = __mul__


CAUGHT, PAYLOAD = [], []


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        return quant(v), None

    def bwd(_, g):
        PAYLOAD.append(formula(x, scale, qmin, qmax, cotangent))
        return (np.zeros(g.shape, np.float32).view(Catcher),)

    quant.defvjp(fwd, bwd)
    CAUGHT.clear()
    values, pullback = jax.vjp(quant, x)
    pullback(jnp.ones_like(x))
    grads = CAUGHT[-1] if CAUGHT else formula(x, scale, qmin, qmax, cotangent)
    return {"values": values, "grads": grads}
