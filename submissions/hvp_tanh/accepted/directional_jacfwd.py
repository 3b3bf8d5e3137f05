"""The derivative of t -> grad f(x + t v) at t = 0, by jax.jacfwd with respect to the scalar t:
a Jacobian, but of a function of one variable, so it has only d entries.

Expected verdict: accepted.
"""
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    grad_f = jax.grad(lambda z: jnp.sum(jnp.tanh(W @ z)))
    return jax.jacfwd(lambda t: grad_f(x + t * v))(jnp.zeros((), x.dtype))
