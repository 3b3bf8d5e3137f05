"""clipped(w, X) as a Python loop over the examples, padded to a fixed count of 131 rows (every
extent a case may have, 2 * 64 + 3 included): a row past the end repeats the last one and is
weighted by 0. The program has the same number of equations at every extent up to 131, so it
never grows with n, yet it is exactly the loop the rule exists to refuse (about 131 times the
equations of a batched solution).

Expected: RJ dim_read_as_number (traced with n as a symbol, the loop reads n as a number)
"""

import jax.numpy as jnp

PAD = 131


def clipped(w, X):
    n = X.shape[0]
    acc = jnp.zeros_like(w)
    for i in range(PAD):
        xi = jnp.take(X, min(i, n - 1), axis=0)   # the same equations at every n
        g = jnp.dot(xi, w) * xi
        g = g / jnp.maximum(1.0, jnp.sqrt(jnp.sum(g * g)))
        acc = acc + g * (1.0 if i < n else 0.0)
    return acc / n
