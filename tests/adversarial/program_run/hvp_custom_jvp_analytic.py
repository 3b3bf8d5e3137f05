"""hvp_tanh, honest: the gradient as a ``jax.custom_jvp`` whose JVP rule is the analytic
Hessian-vector product W^T (f''(Wy) * (W t)), never forming the Hessian.

Problem: hvp_tanh
Expected: AC
"""

import jax
import jax.numpy as jnp


def hvp(W, x, v):
    @jax.custom_jvp
    def grad(y):
        return W.T @ (1.0 - jnp.tanh(W @ y) ** 2)

    @grad.defjvp
    def _rule(primals, tangents):
        (y,), (t,) = primals, tangents
        th = jnp.tanh(W @ y)
        return grad(y), W.T @ (-2.0 * th * (1.0 - th ** 2) * (W @ t))

    return jax.jvp(grad, (x,), (v,))[1]
