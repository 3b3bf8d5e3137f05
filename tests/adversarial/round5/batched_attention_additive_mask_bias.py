"""batched_attention: the mask as an additive bias (``(mask - 1) * 1e9``, as many transformer
codebases write it), the scale applied to q first, batched matmuls with ``swapaxes``.

Problem: batched_attention
Expected: AC
"""

import jax
import jax.numpy as jnp


def batched_attention(q, k, v, mask):
    q = q / jnp.sqrt(jnp.float32(q.shape[-1]))
    bias = (mask.astype(jnp.float32) - 1.0) * 1e9
    scores = q @ jnp.swapaxes(k, -1, -2) + bias
    return jax.nn.softmax(scores, axis=-1) @ v
