"""pairwise_sq_dists: the direct n x m x d difference hidden in a ``jax.shard_map`` over a mesh of
one device. ``shard_map`` holds a function of the submission's, and this problem admits no such
primitive beyond the ones the rules know.

Problem: pairwise_sq_dists
Expected: RJ function_primitive
"""

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec


def pairwise_sq_dists(X, Y):
    mesh = Mesh(np.array(jax.devices()[:1]), ("i",))

    def direct(X, Y):
        diff = X[:, None, :] - Y[None, :, :]
        return jnp.sum(diff * diff, axis=-1)

    spec = PartitionSpec()
    return jax.shard_map(direct, mesh=mesh, in_specs=(spec, spec), out_specs=spec)(X, Y)
