"""batched_attention: the batch moved last with ``jnp.moveaxis`` and mapped with ``in_axes=-1``
(``out_axes=0``), the mask turned into an additive float bias ``(mask - 1) * 1e9`` with
``jnp.float32`` casts, ``.T`` for the transposed keys, ``jax.nn.log_softmax`` then ``exp``.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp

NEG = jnp.float32(1e9)


def attend(q, k, v, mask):
    d = q.shape[-1]
    scores = q @ k.T / jnp.sqrt(jnp.float32(d))
    bias = (mask.astype(jnp.float32) - jnp.float32(1.0)) * NEG
    weights = jnp.exp(jax.nn.log_softmax(scores + bias, axis=-1))
    return weights @ v


def batched_attention(q, k, v, mask):
    last = lambda a: jnp.moveaxis(a, 0, -1)
    return jax.vmap(attend, in_axes=-1, out_axes=0)(last(q), last(k), last(v), last(mask))
