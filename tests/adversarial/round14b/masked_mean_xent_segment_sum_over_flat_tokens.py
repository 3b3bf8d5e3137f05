"""masked_mean_xent: the tokens flattened to (b t, c), each token's loss by ``log_softmax``, and
the sum over valid tokens taken with ``jax.ops.segment_sum`` into two segments (valid, padding;
``num_segments=2``), the first divided by the count of valid tokens.

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    b, t, c = logits.shape
    flat = logits.reshape(-1, c)
    logp = jax.nn.log_softmax(flat)
    nll = -jnp.take_along_axis(logp, labels.reshape(-1, 1), axis=1)[:, 0]
    padding = (jnp.arange(t)[None, :] >= lengths[:, None]).reshape(-1).astype(jnp.int32)
    sums = jax.ops.segment_sum(nll, padding, num_segments=2)
    return sums[0] / jnp.sum(1 - padding).astype(jnp.float32)
