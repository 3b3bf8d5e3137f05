"""Raises an exception named and worded with U+FFFE and U+FFFF, which XML 1.0 forbids.

Expected: RTE exception, and the JUnit report is well-formed XML."""
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


class Bad(Exception):
    pass


Bad.__name__ = "Bad\ufffe\uffff"


def twice(x, k, cotangent):
    raise Bad("not XML: \ufffe \uffff end")
