"""batched_attention, honest: the row maximum over the visible keys by
``jnp.max(scores, where=mask, initial=-jnp.inf)``, hidden scores sent to ``-inf`` before the
``exp`` (so no infinite ``exp`` anywhere), and the sum by ``jnp.sum(e, where=mask)``.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    scores = q @ k.T * (1.0 / jnp.sqrt(jnp.float32(q.shape[1])))
    top = jnp.max(scores, axis=1, keepdims=True, where=mask, initial=-jnp.inf)
    e = jnp.exp(jnp.where(mask, scores - jax.lax.stop_gradient(top), -jnp.inf))
    return (e / jnp.sum(e, axis=1, keepdims=True, where=mask)) @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
