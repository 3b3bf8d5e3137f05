"""hvp_tanh: a batched Hessian-vector product (``jax.vmap`` of forward over reverse over a stack
of vectors) applied to ``v[None]``, the one product taken back with ``[0]``.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    f = lambda z: jnp.sum(jnp.tanh(W @ z))
    one = lambda vec: jax.jvp(jax.grad(f), (x,), (vec,))[1]
    return jax.vmap(one)(v[None])[0]
