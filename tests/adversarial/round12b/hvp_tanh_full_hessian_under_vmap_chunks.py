"""hvp_tanh: the d x d Hessian built by ``jax.hessian`` and multiplied with v, the product
hidden in a ``jax.vmap`` over a batch of one. It grows as d^2.

Problem: hvp_tanh
Expected: RJ
Cases: all
"""
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    def one(xx, vv):
        H = jax.hessian(lambda z: jnp.sum(jnp.tanh(W @ z)))(xx)
        return H @ vv

    return jax.vmap(one)(x[None], v[None])[0]
