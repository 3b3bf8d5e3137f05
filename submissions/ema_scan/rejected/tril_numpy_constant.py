import jax
import jax.numpy as jnp
import numpy as np


def ema(x, decay):
    # a scan weighs each row by 1 - decay, then a weight matrix built with NumPy from the
    # static shape (a constant of the program, T x T) does the recurrence in one product
    T = x.shape[0]
    lag = np.subtract.outer(np.arange(T), np.arange(T))
    W = np.tril(decay ** np.maximum(lag, 0)).astype(np.float32)
    _, weighted = jax.lax.scan(lambda c, row: (c, (1 - decay) * row), 0.0, x)
    return jnp.asarray(W) @ weighted
