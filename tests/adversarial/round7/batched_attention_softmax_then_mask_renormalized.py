"""batched_attention: the softmax over every key, masked afterwards and renormalized: equal to the
masked softmax in exact arithmetic, but a masked key whose score is far above the visible ones
(scores reach 64 in magnitude) drives their exponentials under float32's range, and the row
becomes 0 / 0.

Problem: batched_attention
Expected: WA
Cases: all
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    s = (q / jnp.sqrt(q.shape[-1]).astype(q.dtype)) @ k.T
    p = jax.nn.softmax(s, axis=-1) * mask.astype(jnp.float32)
    p = p / p.sum(-1, keepdims=True)
    return p @ v


batched_attention = jax.jit(jax.vmap(attend, in_axes=0, out_axes=0))
