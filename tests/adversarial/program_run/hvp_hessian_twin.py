"""hvp_tanh twin: at concrete shapes with 2 <= d, the full d x d Hessian; with d a symbol, a
cheap program of the honest one's primitives that computes the gradient instead. The program
run is the one with d a symbol: its values are wrong.

Expected: WA
"""

import jax
import jax.numpy as jnp


def hvp(W, x, v):
    f = lambda y: jnp.sum(jnp.tanh(W @ y))  # noqa: E731
    if isinstance(x.shape[0], int) and x.shape[0] >= 2:
        return jax.hessian(f)(x) @ v
    return jax.jvp(f, (x,), (v,))[1] * jax.grad(f)(x)
