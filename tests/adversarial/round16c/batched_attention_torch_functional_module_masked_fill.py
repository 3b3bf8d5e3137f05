"""batched_attention: ported from PyTorch: a small ``F`` namespace class of static helpers
(``softmax(x, dim=-1)``, ``masked_fill``), ``k.transpose(-1, -2)`` written as
``jnp.swapaxes(k, -1, -2)``, the masked scores filled with ``-inf`` before the softmax.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


class F:
    @staticmethod
    def softmax(x, dim=-1):
        return jax.nn.softmax(x, axis=dim)

    @staticmethod
    def masked_fill(x, mask, value):
        return jnp.where(mask, value, x)

    @staticmethod
    def scaled_dot_product_attention(q, k, v, attn_mask):
        scale = 1.0 / jnp.sqrt(jnp.float32(q.shape[-1]))
        scores = q @ jnp.swapaxes(k, -1, -2) * scale
        scores = F.masked_fill(scores, ~attn_mask, -jnp.inf)
        return F.softmax(scores, dim=-1) @ v


def attend(q, k, v, mask):
    return F.scaled_dot_product_attention(q, k, v, mask)


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
