"""The Hessian row by row: lax.map over the coordinates computes H e_i with a one-hot made
inside the body (no d x d identity anywhere), and the stacked rows times v give H v. Each step
holds only d values, but lax.map stacks its d results into the d x d Hessian.

Expected verdict: rejected (an intermediate of d * d elements).
"""
import jax
import jax.numpy as jnp
from jax import lax


def hvp(W, x, v):
    grad_f = jax.grad(lambda z: jnp.sum(jnp.tanh(W @ z)))
    d = x.shape[0]

    def row(i):
        e = (jnp.arange(d) == i).astype(x.dtype)
        return jax.jvp(grad_f, (x,), (e,))[1]

    H = lax.map(row, jnp.arange(d))
    return H @ v
