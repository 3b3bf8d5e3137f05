"""Returns 600,000 values instead of the case's few.

Expected: WA wrong_shape, with a small report: the diff shows the shape and the first entries
(before: a 34.6 MB text report).
"""
import jax
import jax.numpy as jnp


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
    return {"values": jnp.arange(600_000, dtype=jnp.float32), "grads": out["grads"]}
