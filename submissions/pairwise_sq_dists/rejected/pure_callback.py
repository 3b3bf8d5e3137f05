import jax
import numpy as np


def _np_dists(X, Y):
    X, Y = np.asarray(X, np.float64), np.asarray(Y, np.float64)
    return ((X[:, None, :] - Y[None, :, :]) ** 2).sum(-1).astype(np.float32)


def pairwise_sq_dists(X, Y):
    out = jax.ShapeDtypeStruct((X.shape[0], Y.shape[0]), X.dtype)
    return jax.pure_callback(_np_dists, out, X, Y)
