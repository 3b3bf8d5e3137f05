"""The Hessian as the forward-mode Jacobian of the gradient, then times v.

Expected verdict: rejected (an intermediate of d * d elements).
"""
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    grad_f = jax.grad(lambda z: jnp.sum(jnp.tanh(W @ z)))
    return jax.jacfwd(grad_f)(x) @ v
