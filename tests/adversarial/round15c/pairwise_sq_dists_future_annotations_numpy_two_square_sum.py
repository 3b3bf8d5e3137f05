"""pairwise_sq_dists: ``from __future__ import annotations`` with ``jax.Array`` hints, an
``assert X.ndim == 2``, a module-level ``TWO = np.float32(2.0)``, the norms by
``jnp.square(X).sum(-1)`` and the cross term ``X @ Y.T``.

Problem: pairwise_sq_dists
Expected: AC
Cases: all
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

TWO = np.float32(2.0)


def pairwise_sq_dists(X: jax.Array, Y: jax.Array) -> jax.Array:
    assert X.ndim == 2 and Y.ndim == 2
    return jnp.square(X).sum(-1)[:, None] + jnp.square(Y).sum(-1)[None, :] - TWO * (X @ Y.T)
