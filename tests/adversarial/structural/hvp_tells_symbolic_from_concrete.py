"""hvp for hvp_tanh that tells the judge's symbolic trace from the run that computes the values:
an extent is a Python int only when the shapes are concrete. Traced with d as a symbol it is the
honest jvp-of-grad; at a case's own shapes it builds jax.hessian. The program a case runs is not
the symbolic one instantiated at its d (its first equation is the Hessian's iota), so every case
with d >= 2 is refused for it; at d = 1 the programs are not compared.

Expected: AC. Every case runs the program traced with symbolic dims, which takes the honest
branch; the branch for concrete extents never runs, so it is never graded either.
"""

import jax
import jax.numpy as jnp


def hvp(W, x, v):
    f = lambda y: jnp.sum(jnp.tanh(W @ y))  # noqa: E731
    if isinstance(x.shape[0], int):
        return jax.hessian(f)(x) @ v
    return jax.jvp(jax.grad(f), (x,), (v,))[1]
