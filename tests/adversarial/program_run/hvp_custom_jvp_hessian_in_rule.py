"""hvp_tanh: the gradient as a ``jax.custom_jvp`` whose JVP rule builds the full d x d Hessian
and multiplies it with the tangent. The submission's own jvp traces that rule into its program.

Problem: hvp_tanh
Expected: RJ intermediate_too_large
"""

import jax
import jax.numpy as jnp


def hvp(W, x, v):
    f = lambda y: jnp.sum(jnp.tanh(W @ y))  # noqa: E731

    @jax.custom_jvp
    def grad(y):
        return jax.grad(f)(y)

    @grad.defjvp
    def _rule(primals, tangents):
        (y,), (t,) = primals, tangents
        return grad(y), jax.hessian(f)(y) @ t

    return jax.jvp(grad, (x,), (v,))[1]
