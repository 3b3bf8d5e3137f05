"""pairwise_sq_dists: honest code with a metric class (``__call__``), ``jax.numpy`` imported as
``np``, and the expansion written with ``einsum``.

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
import jax.numpy as np


class SquaredEuclidean:
    def __call__(self, A, B):
        aa = np.einsum("id,id->i", A, A)
        bb = np.einsum("jd,jd->j", B, B)
        return aa[:, None] + bb[None, :] - 2.0 * np.einsum("id,jd->ij", A, B)


def pairwise_sq_dists(X, Y):
    return SquaredEuclidean()(X, Y)
