"""batched_attention: the mask turned into an additive bias by ``jnp.log`` of it as a float
(log 1 = 0, log 0 = -inf), added to the scores before ``jax.nn.softmax``; the scale computed
under ``jax.ensure_compile_time_eval`` with NumPy; vmapped.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
import numpy as np


def attend(q, k, v, mask):
    with jax.ensure_compile_time_eval():
        scale = float(1.0 / np.sqrt(q.shape[-1]))
    bias = jnp.log(mask.astype(q.dtype))
    return jax.nn.softmax(q @ k.T * scale + bias, axis=-1) @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
