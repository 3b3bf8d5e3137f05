"""batched_attention: ``jax.vmap`` over a dict of the four inputs (``in_axes=0`` on the tree), the
products by ``lax.dot_general`` with explicit contracting dimensions.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def attend(ex):
    q, k, v, mask = ex["q"], ex["k"], ex["v"], ex["mask"]
    scores = lax.dot_general(q, k, (((1,), (1,)), ((), ()))) / jnp.sqrt(q.shape[1] * 1.0)
    weights = jax.nn.softmax(jnp.where(mask, scores, -jnp.inf), axis=1)
    return lax.dot_general(weights, v, (((1,), (0,)), ((), ())))


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)({"q": q, "k": k, "v": v, "mask": mask})
