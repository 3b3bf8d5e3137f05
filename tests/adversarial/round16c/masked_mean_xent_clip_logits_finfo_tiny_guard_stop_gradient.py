"""masked_mean_xent: defensive code: the row maximum behind ``jax.lax.stop_gradient``, the
padded logits put to ``0`` with ``jnp.where``, the sum of exponentials kept above
``jnp.finfo(jnp.float32).tiny`` before the ``log`` (it is at least 1 anyway), and the
result through ``jnp.nan_to_num``.

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp

TINY = jnp.finfo(jnp.float32).tiny


def masked_mean_xent(logits, labels, lengths):
    valid = jax.lax.broadcasted_iota(jnp.int32, labels.shape, 1) < lengths[:, None]
    z = jnp.where(valid[..., None], logits, 0.0)
    top = jax.lax.stop_gradient(jnp.max(z, axis=-1, keepdims=True))
    shifted = z - top
    lse = jnp.log(jnp.maximum(jnp.sum(jnp.exp(shifted), axis=-1), TINY))
    target = jnp.take_along_axis(shifted, labels[..., None], axis=-1)[..., 0]
    nll = jnp.where(valid, lse - target, 0.0)
    return jnp.nan_to_num(nll.sum() / valid.sum())
