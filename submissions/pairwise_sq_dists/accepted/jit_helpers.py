import jax
import jax.numpy as jnp


@jax.jit
def squared_norms(A):
    return jnp.sum(jnp.square(A), axis=-1)


@jax.jit
def gram(A, B):
    return A @ B.T


@jax.jit
def pairwise_sq_dists(X, Y):
    return squared_norms(X)[:, None] + squared_norms(Y)[None, :] - 2.0 * gram(X, Y)
