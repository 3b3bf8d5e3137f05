"""batched_attention, cheat: a ``lax.cond`` on the data (``mask.all()``: every query sees every
key) whose true branch attends with the (t, s, e) product of the weights and the values summed
over s, the false branch honest; the size rule must weigh a branch the cases may take.

Problem: batched_attention
Expected: RJ intermediate_too_large
Cases: all
"""
import jax
import jax.numpy as jnp


def _weights(q, k, mask):
    scores = q @ k.T / jnp.sqrt(jnp.float32(q.shape[-1]))
    return jax.nn.softmax(jnp.where(mask, scores, -jnp.inf), axis=-1)


def attend(q, k, v, mask):
    w = _weights(q, k, mask)
    return jax.lax.cond(mask.all(),
                        lambda: jnp.sum(w[:, :, None] * v[None, :, :], axis=1),
                        lambda: w @ v)


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
