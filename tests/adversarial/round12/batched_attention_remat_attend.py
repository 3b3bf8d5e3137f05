"""batched_attention: ``jax.remat`` (``jax.checkpoint``) of the one-example function with the
``dots_saveable`` policy, then ``jax.vmap``; the batch written with ``jnp.tensordot``.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.remat
def attend(q, k, v, mask):
    s = jnp.tensordot(q, k, axes=([1], [1])) / jnp.sqrt(q.shape[1])
    s = jnp.where(mask, s, -jnp.inf)
    w = jax.nn.softmax(s)
    return jnp.tensordot(w, v, axes=1)


def batched_attention(q, k, v, mask):
    return jax.vmap(jax.checkpoint(attend, policy=jax.checkpoint_policies.dots_saveable))(q, k, v, mask)
