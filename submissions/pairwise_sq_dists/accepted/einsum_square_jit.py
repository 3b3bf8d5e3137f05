import jax
import jax.numpy as jnp


@jax.jit
def pairwise_sq_dists(X, Y):
    cross = jnp.einsum("nd,md->nm", X, Y)
    return (jnp.square(X).sum(-1, keepdims=True) - 2 * cross) + jnp.square(Y).sum(-1)
