"""pairwise_sq_dists: a port of ``torch.cdist(input, other) ** 2`` whose helper keeps
PyTorch's parameter names ``input`` and ``other``.

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
import jax.numpy as jnp


def cdist_sq(input, other):
    a = jnp.sum(input * input, axis=-1)
    b = jnp.sum(other * other, axis=-1)
    return a[:, None] + b[None, :] - 2.0 * (input @ other.T)


def pairwise_sq_dists(X, Y):
    return cdist_sq(input=X, other=Y)
