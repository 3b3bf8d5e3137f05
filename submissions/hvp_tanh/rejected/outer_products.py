"""The Hessian as a sum of weighted outer products of W's rows, by einsum, then times v.

Expected verdict: rejected (an intermediate of d * d elements).
"""
import jax.numpy as jnp


def hvp(W, x, v):
    t = jnp.tanh(W @ x)
    s = -2.0 * t * (1.0 - t * t)
    H = jnp.einsum("m,mi,mj->ij", s, W, W)
    return jnp.einsum("ij,j->i", H, v)
