"""batched_attention: NumPy habits: ``jnp.einsum`` strings with spaces (``"t d, s d -> t s"``),
the masked scores set to ``jnp.finfo(jnp.float32).min``, the max subtracted by hand with
``keepdims=True`` and the weights zeroed again with the mask before dividing.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
import numpy as np

NEG = jnp.finfo(jnp.float32).min


def attend(q, k, v, mask):
    d = q.shape[-1]
    scores = jnp.einsum("t d, s d -> t s", q, k) / np.sqrt(d)
    scores = jnp.where(mask, scores, NEG)
    scores = scores - scores.max(axis=-1, keepdims=True)
    e = jnp.exp(scores) * mask
    w = e / e.sum(axis=-1)[:, np.newaxis]
    return jnp.einsum("t s, s e -> t e", w, v)


def batched_attention(q, k, v, mask):
    return jax.vmap(attend, in_axes=(0, 0, 0, 0), out_axes=0)(q, k, v, mask)
