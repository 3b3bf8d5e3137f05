import jax.numpy as jnp


def hvp(W, x, v):
    t = jnp.tanh(W @ x)
    # d/dz tanh'(z) = -2 tanh(z) (1 - tanh(z)^2)
    curv = -2.0 * t * (1.0 - t ** 2)
    return W.T @ (curv * (W @ v))
