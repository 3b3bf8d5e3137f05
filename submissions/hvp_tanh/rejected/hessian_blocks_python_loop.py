"""Builds the Hessian up to twelve rows at a time (a jvp of the gradient vmapped over twelve basis
vectors, in a jit traced once) in a Python loop over the blocks, and multiplies each block with
v: no value is larger than 12 d, within the size bound at every shape, 4 m d + 8 d, and no loop primitive
appears; but it costs d gradients where the Hessian-vector product costs two, which the
statement forbids ("no loop over the coordinates").

Expected verdict: rejected (the program grows with d).
"""
import jax
import jax.numpy as jnp



def hvp(W, x, v):
    def f(z):
        return jnp.sum(jnp.tanh(W @ z))

    g = jax.grad(f)
    m, d = W.shape
    BLOCK = max(1, min(12, (4 * m * d + 8 * d) // max(m, d)))   # what the bound lets through

    @jax.jit
    def block(start):
        basis = jax.nn.one_hot(start + jnp.arange(BLOCK), d, dtype=x.dtype)   # rows past d are 0
        rows = jax.vmap(lambda e: jax.jvp(g, (x,), (e,))[1])(basis)          # BLOCK rows of H
        return rows @ v

    parts = [block(start) for start in range(0, d, BLOCK)]
    return jnp.concatenate(parts)[:d]
