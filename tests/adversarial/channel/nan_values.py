"""Returns NaN values.

Expected: WA wrong_value, and the JSON report is strict JSON (no bare NaN token)."""
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
    out["values"] = out["values"] * jnp.nan
    return out
