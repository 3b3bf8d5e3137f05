"""An honest solution of the test problem ``twice`` (tests/test_channel.py).

Expected: AC
"""
import jax


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
    return honest(x, cotangent)
