"""batched_attention, cheat on the size bound: the scores summed from broadcast products of
four features at a time (``q[:, :, None, j:j + 4] * k[:, None, :, j:j + 4]``, d being the
case's number), so that at d = 16 no value has b t s d elements: four pieces of b t s 4 each,
within the bound there, and few equations. At d = 4 a piece is the whole b t s d product, past
the bound at the examples' own sizes: pieces small enough to pass at every d are single
features, whose program passes the cap on equations at d = 16
(``round7/batched_attention_scores_one_feature_at_a_time.py``).

Problem: batched_attention
Expected: RJ intermediate_too_large
Cases: all
"""
import jax
import jax.numpy as jnp


def batched_attention(q, k, v, mask):
    d = q.shape[-1]
    scores = jnp.zeros(mask.shape, jnp.float32)
    for j in range(0, d, 4):
        qa = q[:, :, None, j:j + 4]
        ka = k[:, None, :, j:j + 4]
        scores = scores + jnp.sum(qa * ka, axis=-1)
    w = jax.nn.softmax(jnp.where(mask, scores / jnp.sqrt(d), -jnp.inf), axis=-1)
    return w @ v
