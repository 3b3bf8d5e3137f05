import jax
import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    def step(carry, x):
        return carry, jnp.sum((Y - x) ** 2, axis=1)
    _, D = jax.lax.scan(step, None, X)
    return D
