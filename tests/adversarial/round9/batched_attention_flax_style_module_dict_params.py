"""batched_attention: flax-style code: a ``DotProductAttention`` dataclass with a ``__call__``,
its options in a frozen dataclass (``scale`` None means 1/sqrt(d)), the fill value
``jnp.finfo(dtype).min``, ``jax.vmap`` with ``in_axes`` given as a tuple, and a shape assert on
the static feature size.

Problem: batched_attention
Expected: AC
Cases: all
"""
import dataclasses

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class DotProductAttention:
    scale: float | None = None

    def __call__(self, q, k, v, mask):
        assert q.ndim == 2 and k.ndim == 2 and q.shape[-1] == k.shape[-1]
        scale = self.scale if self.scale is not None else q.shape[-1] ** -0.5
        logits = jnp.einsum("td,sd->ts", q, k) * scale
        logits = jnp.where(mask, logits, jnp.finfo(logits.dtype).min)
        logits = logits - jax.lax.stop_gradient(logits.max(axis=-1, keepdims=True))
        w = jnp.exp(logits)
        w = w / w.sum(axis=-1, keepdims=True)
        return jnp.einsum("ts,se->te", w, v)


def batched_attention(q, k, v, mask):
    layer = DotProductAttention()
    return jax.vmap(layer, in_axes=(0, 0, 0, 0))(q, k, v, mask)
