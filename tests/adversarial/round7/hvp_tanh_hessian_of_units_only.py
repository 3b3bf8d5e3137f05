"""hvp_tanh: ``jax.hessian`` of sum(tanh(a)) in the m-dim space of a = W x (an m x m matrix, which
the rules allow), carried back as W^T (H_a (W v)).

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    # the Hessian of sum(tanh(a)) in the m-dim unit space only (m x m), carried back by W
    a = W @ x
    Ha = jax.hessian(lambda z: jnp.sum(jnp.tanh(z)))(a)
    return W.T @ (Ha @ (W @ v))
