"""hvp_tanh: honest code: ``jax.linearize`` of the gradient, the linear function applied to
``v``; a ``jax.lax.cond`` on a Python bool with lambdas picks it (the other branch is the
closed form, never taken).

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp

USE_AUTODIFF = True


def hvp(W, x, v):
    def closed(u):
        t = jnp.tanh(W @ x)
        return W.T @ (-2.0 * t * (1.0 - t * t) * (W @ u))

    def auto(u):
        _, lin = jax.linearize(jax.grad(lambda z: jnp.sum(jnp.tanh(W @ z))), x)
        return lin(u)

    return jax.lax.cond(USE_AUTODIFF, lambda u: auto(u), lambda u: closed(u), v)
