"""masked_mean_xent: written with ``lax`` primitives only: ``broadcasted_iota`` for the positions
and the classes, ``lax.select`` for the mask and the one-hot, ``lax.reduce_max`` /
``lax.reduce_sum`` for the stable log-sum-exp (the maximum held by ``stop_gradient``).

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
import jax.numpy as jnp
from jax import lax


def masked_mean_xent(logits, labels, lengths):
    shape = logits.shape
    pos = lax.broadcasted_iota(jnp.int32, shape[:2], 1)
    valid = lax.lt(pos, lax.broadcast_in_dim(lengths, shape[:2], (0,)))
    valid3 = lax.broadcast_in_dim(valid, shape, (0, 1))
    z = lax.select(valid3, logits, lax.full_like(logits, 0.0))
    zmax = lax.stop_gradient(lax.reduce_max(z, (2,)))
    shifted = lax.sub(z, lax.broadcast_in_dim(zmax, shape, (0, 1)))
    lse = lax.log(lax.reduce_sum(lax.exp(shifted), (2,)))
    cls = lax.broadcasted_iota(jnp.int32, shape, 2)
    hit = lax.eq(cls, lax.broadcast_in_dim(labels, shape, (0, 1)))
    target = lax.reduce_sum(lax.select(hit, shifted, lax.full_like(shifted, 0.0)), (2,))
    per_token = lax.select(valid, lax.sub(lse, target), lax.full_like(lse, 0.0))
    n = lax.convert_element_type(lax.reduce_sum(lengths, (0,)), jnp.float32)
    return lax.div(lax.reduce_sum(per_token, (0, 1)), n)
