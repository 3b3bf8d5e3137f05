import jax.numpy as jnp


def pairwise_sq_dists(X, Y):
    rows = []
    for i in range(X.shape[0]):
        row = []
        for j in range(Y.shape[0]):
            row.append(jnp.sum((X[i] - Y[j]) ** 2))
        rows.append(jnp.stack(row))
    return jnp.stack(rows)
