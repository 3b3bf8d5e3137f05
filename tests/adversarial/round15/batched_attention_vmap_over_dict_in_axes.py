"""batched_attention, honest: the four arrays in a dict, ``jax.vmap(attend, in_axes=({"q": 0,
"k": 0, "v": 0, "mask": 0},))`` over it, ``attend`` reading the dict by key.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def attend(ex):
    q, k, v, mask = ex["q"], ex["k"], ex["v"], ex["mask"]
    scores = jnp.matmul(q, k.T) / jnp.sqrt(q.shape[-1] * 1.0)
    scores = scores - jax.lax.stop_gradient(jnp.max(jnp.where(mask, scores, -1e30), -1, keepdims=True))
    ex_s = jnp.exp(jnp.where(mask, scores, -1e30))
    return (ex_s / jnp.sum(ex_s, -1, keepdims=True)) @ v


def batched_attention(q, k, v, mask):
    axes = {"q": 0, "k": 0, "v": 0, "mask": 0}
    return jax.vmap(attend, in_axes=(axes,))({"q": q, "k": k, "v": v, "mask": mask})
