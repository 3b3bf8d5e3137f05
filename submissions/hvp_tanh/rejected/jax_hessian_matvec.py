# the full Hessian, then a matrix-vector product
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    return jax.hessian(lambda x: jnp.sum(jnp.tanh(W @ x)))(x) @ v
