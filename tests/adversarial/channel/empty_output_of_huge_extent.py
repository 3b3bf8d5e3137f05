"""Returns values as an empty array of shape (2**58, 0): no data, but 2**58 rows for whoever walks it.

Expected: WA wrong_type (the worker sends it as an array the channel does not carry); before, the
judge walked its rows in the example diff and never finished."""
import jax
import jax.numpy as jnp
import numpy as np


@jax.custom_vjp
def double(v):
    return 2 * v


def _fwd(v):
    return 2 * v, None


def _bwd(_, g):
    return (2 * g,)


double.defvjp(_fwd, _bwd)


def honest(x, cotangent):
    values, pullback = jax.vjp(double, x)
    (grads,) = pullback(cotangent)
    return {"values": values, "grads": grads}


def twice(x, k, cotangent):
    out = honest(x, cotangent)
    out["values"] = np.zeros((2 ** 58, 0), np.float32)
    return out
