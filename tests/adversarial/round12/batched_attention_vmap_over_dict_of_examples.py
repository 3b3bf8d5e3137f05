"""batched_attention: the four arrays put in a dict and ``jax.vmap`` mapped over the dict (one
``in_axes`` for the whole tree), the one-example function taking the dict.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def attend(ex):
    q, k, v, mask = ex["q"], ex["k"], ex["v"], ex["mask"]
    logits = jnp.einsum("td,sd->ts", q, k) / jnp.sqrt(q.shape[-1])
    logits = jnp.where(mask, logits, -jnp.inf)
    weights = jnp.exp(logits - jnp.max(logits, axis=-1, keepdims=True))
    weights = weights / jnp.sum(weights, axis=-1, keepdims=True)
    return jnp.einsum("ts,se->te", weights, v)


def batched_attention(q, k, v, mask):
    return jax.vmap(attend, in_axes=({"q": 0, "k": 0, "v": 0, "mask": 0},))(
        {"q": q, "k": k, "v": v, "mask": mask})
