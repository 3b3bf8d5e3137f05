"""hvp_tanh: tanh written as a ``jax.custom_vjp`` (the output kept as residual, the backward rule
``(1 - y^2) g``), the Hessian-vector product forward over reverse: ``jax.jvp`` of the gradient,
which differentiates the backward rule in forward mode.

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.custom_vjp
def tanh(z):
    return jnp.tanh(z)


def tanh_fwd(z):
    y = jnp.tanh(z)
    return y, y


def tanh_bwd(y, g):
    return ((1.0 - y * y) * g,)


tanh.defvjp(tanh_fwd, tanh_bwd)


def hvp(W, x, v):
    f = lambda x: jnp.sum(tanh(W @ x))
    return jax.jvp(jax.grad(f), (x,), (v,))[1]
