"""batched_attention: a student reuses a multi-head attention written for (b, t, h, d) inputs
with one head: reshape to a heads axis of one, ``jnp.einsum('bhtd,bhsd->bhts')``, the mask
broadcast over heads, ``jax.nn.softmax`` of the masked scores, the heads merged back with a
transpose and a reshape to (b, t, e).

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def multi_head_attention(q, k, v, mask, num_heads):
    b, t, d = q.shape
    s, e = k.shape[1], v.shape[2]
    hd, he = d // num_heads, e // num_heads
    qh = q.reshape(b, t, num_heads, hd).transpose(0, 2, 1, 3)
    kh = k.reshape(b, s, num_heads, hd).transpose(0, 2, 1, 3)
    vh = v.reshape(b, s, num_heads, he).transpose(0, 2, 1, 3)
    logits = jnp.einsum("bhtd,bhsd->bhts", qh, kh) / jnp.sqrt(hd).astype(q.dtype)
    logits = jnp.where(mask[:, None, :, :], logits, -jnp.inf)
    weights = jax.nn.softmax(logits, axis=-1)
    out = jnp.einsum("bhts,bhse->bhte", weights, vh)
    return out.transpose(0, 2, 1, 3).reshape(b, t, num_heads * he)


def batched_attention(q, k, v, mask):
    return multi_head_attention(q, k, v, mask, num_heads=1)
