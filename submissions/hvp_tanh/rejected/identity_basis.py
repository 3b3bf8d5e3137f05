"""Hessian-vector products against every basis vector (vmap over jnp.eye(d)) to get the
Hessian, then times v: the d x d identity and the d x d result are both built.

Expected verdict: rejected (an intermediate of d * d elements).
"""
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    grad_f = jax.grad(lambda z: jnp.sum(jnp.tanh(W @ z)))

    def column(e):
        return jax.jvp(grad_f, (x,), (e,))[1]

    H = jax.vmap(column)(jnp.eye(x.shape[0], dtype=x.dtype))
    return H @ v
