"""batched_attention, honest: the examples one at a time with ``jax.lax.map`` (not a Python
loop; this problem forbids no loop primitive), each by ``jnp.einsum``.

Problem: batched_attention
Expected: AC
"""

import jax
import jax.numpy as jnp


def batched_attention(q, k, v, mask):
    def one(args):
        q, k, v, mask = args
        scores = jnp.einsum("td,sd->ts", q, k) / jnp.sqrt(jnp.float32(q.shape[-1]))
        return jnp.einsum("ts,se->te", jax.nn.softmax(jnp.where(mask, scores, -jnp.inf), -1), v)

    return jax.lax.map(one, (q, k, v, mask))
