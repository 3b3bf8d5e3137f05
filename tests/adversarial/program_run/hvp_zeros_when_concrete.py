"""hvp_tanh: the honest jvp-of-grad when d is a symbol, zeros when it is a number. Every case
runs the program traced with d as a symbol, so no case ever sees the zeros: were the function
called again at a case's shapes, every case would be a wrong answer.

Expected: AC
"""

import jax
import jax.numpy as jnp


def hvp(W, x, v):
    if isinstance(x.shape[0], int):
        return jnp.zeros_like(x)
    f = lambda y: jnp.sum(jnp.tanh(W @ y))  # noqa: E731
    return jax.jvp(jax.grad(f), (x,), (v,))[1]
