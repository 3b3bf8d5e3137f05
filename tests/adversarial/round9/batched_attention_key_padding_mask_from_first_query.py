"""batched_attention: a plausible wrong answer from padding-mask habits: the student assumes a
key-padding mask, the same for every query, and takes it from the first query's row
(``mask[:, :1, :]`` broadcast over the queries); right wherever every query of an example sees
the same keys, wrong elsewhere.

Problem: batched_attention
Expected: WA
"""
import jax
import jax.numpy as jnp


def batched_attention(q, k, v, mask):
    keys_visible = mask[:, :1, :]
    scores = jnp.einsum("btd,bsd->bts", q, k) / jnp.sqrt(jnp.float32(q.shape[-1]))
    weights = jax.nn.softmax(jnp.where(keys_visible, scores, -jnp.inf), axis=-1)
    return jnp.einsum("bts,bse->bte", weights, v)
