import jax
import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    n, m = X.shape[0], Y.shape[0]

    def body(i, D):
        return D.at[i].set(jnp.sum((Y - X[i]) ** 2, axis=1))

    return jax.lax.fori_loop(0, n, body, jnp.zeros((n, m), X.dtype))
