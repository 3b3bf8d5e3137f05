"""Builds the Hessian only while d is at most 512 and uses a Hessian-vector product above that,
so a check at a large probe shape alone sees an honest program.

Expected verdict: rejected (an intermediate of d * d elements on the wide cases).
"""
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    def f(z):
        return jnp.sum(jnp.tanh(W @ z))

    if x.shape[0] <= 512:
        return jax.hessian(f)(x) @ v
    return jax.jvp(jax.grad(f), (x,), (v,))[1]
