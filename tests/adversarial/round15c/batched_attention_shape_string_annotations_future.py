"""batched_attention: jaxtyping-style shape strings in the annotations without importing
jaxtyping (``from __future__ import annotations`` keeps them unevaluated):
``q: Float[Array, "t d"]``, ``-> Float[Array, "*batch t e"]``; ``math.sqrt`` of the static
width and ``jax.nn.softmax`` of the scores with ``-inf`` where hidden.

Problem: batched_attention
Expected: AC
Cases: all
"""
from __future__ import annotations

import math

import jax
import jax.numpy as jnp


def attend(q: Float[Array, "t d"], k: Float[Array, "s d"], v: Float[Array, "s e"],
           mask: Bool[Array, "t s"]) -> Float[Array, "t e"]:
    scores = q @ k.T / math.sqrt(q.shape[-1])
    return jax.nn.softmax(jnp.where(mask, scores, -jnp.inf), axis=-1) @ v


def batched_attention(q: Float[Array, "b t d"], k: Float[Array, "b s d"],
                      v: Float[Array, "b s e"], mask: Bool[Array, "b t s"]
                      ) -> Float[Array, "*batch t e"]:
    return jax.vmap(attend)(q, k, v, mask)
