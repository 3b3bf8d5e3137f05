"""hvp_tanh: a cheat that builds the full Hessian whenever it would fit the bound at this case
(``d * d <= 4 * m * d + 8 * d``) and uses forward over reverse otherwise: it reads d as a number,
which the symbolic trace refuses.

Problem: hvp_tanh
Expected: RJ dim_read_as_number
"""
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    m, d = W.shape
    f = lambda z: jnp.sum(jnp.tanh(W @ z))
    if d * d <= 4 * m * d + 8 * d:
        return jax.hessian(f)(x) @ v
    return jax.jvp(jax.grad(f), (x,), (v,))[1]
