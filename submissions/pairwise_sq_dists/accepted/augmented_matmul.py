import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    # one matrix product: [x, |x|^2, 1] . [-2 y, 1, |y|^2] = |x|^2 + |y|^2 - 2 x.y
    n, m = X.shape[0], Y.shape[0]
    xa = jnp.concatenate([X, jnp.sum(X * X, 1, keepdims=True), jnp.ones((n, 1), X.dtype)], axis=1)
    ya = jnp.concatenate([-2.0 * Y, jnp.ones((m, 1), Y.dtype), jnp.sum(Y * Y, 1, keepdims=True)], axis=1)
    return xa @ ya.T
