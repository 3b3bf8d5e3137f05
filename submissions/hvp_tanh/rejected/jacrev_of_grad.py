"""The Hessian as the reverse-mode Jacobian of the gradient, then v times it (symmetric).

Expected verdict: rejected (an intermediate of d * d elements).
"""
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    grad_f = jax.grad(lambda z: jnp.sum(jnp.tanh(W @ z)))
    return v @ jax.jacrev(grad_f)(x)
