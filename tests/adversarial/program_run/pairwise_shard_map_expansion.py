"""pairwise_sq_dists: the honest expansion inside a ``jax.shard_map`` over a mesh of one device
(what code written for several devices looks like on one). ``shard_map`` holds a function of
the submission's, a primitive the rules do not know how often it runs: no problem admits it
unless its spec names it, so honest code in one is refused, saying so.

Problem: pairwise_sq_dists
Expected: RJ function_primitive
"""

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec


def pairwise_sq_dists(X, Y):
    mesh = Mesh(np.array(jax.devices()[:1]), ("i",))

    def expansion(X, Y):
        return jnp.sum(X * X, axis=1)[:, None] + jnp.sum(Y * Y, axis=1)[None, :] - 2.0 * (X @ Y.T)

    spec = PartitionSpec()
    return jax.shard_map(expansion, mesh=mesh, in_specs=(spec, spec), out_specs=spec)(X, Y)
