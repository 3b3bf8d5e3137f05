"""hvp_tanh: ``jax.linearize`` of the gradient at x, its linear map applied to v, all under
``jax.jit``; f's gradient taken by ``jax.value_and_grad`` (the value dropped).

Problem: hvp_tanh
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.jit
def hvp(W, x, v):
    def grad_f(z):
        return jax.value_and_grad(lambda y: jnp.sum(jnp.tanh(jnp.matmul(W, y))))(z)[1]

    _, lin = jax.linearize(grad_f, x)
    return lin(v)
