"""hvp_tanh: the gradient written by hand, grad f(x) = W^T (1 - tanh(W x)^2), and H v as its
``jax.jvp`` along v (forward mode through the student's own gradient function).

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    def grad_f(z):
        t = jnp.tanh(W @ z)
        return W.T @ (1.0 - t * t)

    return jax.jvp(grad_f, (x,), (v,))[1]
