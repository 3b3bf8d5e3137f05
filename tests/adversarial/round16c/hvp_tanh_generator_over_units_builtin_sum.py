"""hvp_tanh: the closed form summed over the ``m`` units (a loop the statement allows) by the
builtin ``sum`` of a generator function that ``yield``\\ s each unit's row, ``W[i] @ x`` and
``W[i] @ v`` on 1-d vectors.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def rows(W):
    for i in range(W.shape[0]):
        yield W[i]


def hvp(W, x, v):
    def term(w):
        t = jnp.tanh(w @ x)
        return (-2.0 * t * (1.0 - t ** 2)) * (w @ v) * w

    return sum(term(w) for w in rows(W))
