"""Batched over directions with vmap (a stack of one direction here), as one would to apply
the Hessian to a few vectors at once.

Expected verdict: accepted.
"""
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    grad_f = jax.grad(lambda z: jnp.sum(jnp.tanh(W @ z)))

    def one(direction):
        return jax.jvp(grad_f, (x,), (direction,))[1]

    return jax.vmap(one)(v[None, :])[0]
