"""hvp for hvp_tanh that tells the judge's symbolic trace from the run that computes the values:
an extent is a Python int only when the shapes are concrete. Traced with d as a symbol it is the
honest jvp-of-grad; at a case's own shapes it builds jax.hessian. The symbolic trace cannot see
the Hessian, so the rules also read each case's own program: at every case where d * d is above
4 m d + 8 d + m * m the Hessian breaks the bound there.

Expected: RJ intermediate_too_large
"""

import jax
import jax.numpy as jnp


def hvp(W, x, v):
    f = lambda y: jnp.sum(jnp.tanh(W @ y))  # noqa: E731
    if isinstance(x.shape[0], int):
        return jax.hessian(f)(x) @ v
    return jax.jvp(jax.grad(f), (x,), (v,))[1]
