"""Raises an exception whose text is a str subclass claiming length 0 while holding 5000 characters.

Expected: RTE exception, its text capped (before: RJ channel_tampered, the worker's cap fooled)."""
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


class S(str):
    def __len__(self):
        return 0

    def __getitem__(self, index):
        return S(str.__str__(self))


class E(Exception):
    def __str__(self):
        return S("y" * 5000)


def twice(x, k, cotangent):
    raise E()
