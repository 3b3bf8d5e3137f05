"""jax.linearize of the gradient at x, then the linear map applied to v.

Expected verdict: accepted.
"""
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    grad_f = jax.grad(lambda z: jnp.sum(jnp.tanh(W @ z)))
    _, hessian_times = jax.linearize(grad_f, x)
    return hessian_times(v)
