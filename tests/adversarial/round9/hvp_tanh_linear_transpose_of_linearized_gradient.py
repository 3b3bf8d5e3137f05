"""hvp_tanh: ``jax.linearize`` of the gradient at x, then ``jax.linear_transpose`` of that
linear map applied to v: the Hessian is symmetric, so its transpose times v is H v (the
student reaches for the VJP form of a linear map).

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    grad_f = jax.grad(lambda z: jnp.tanh(W @ z).sum())
    _, lin = jax.linearize(grad_f, x)
    (out,) = jax.linear_transpose(lin, x)(v)
    return out
