"""batched_attention, cheat: a ``lax.scan`` over ``jnp.arange(8)`` (b <= 8), each trip taking
its example with ``jnp.take`` (clipped) and adding it where a one-hot row of the counter says:
the scan's length is 8 whatever b is, and its body indexes the examples by the scanned counter.

Problem: batched_attention
Expected: RJ unrolled_loop
Cases: all
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    scores = jnp.where(mask, q @ k.T / jnp.sqrt(jnp.float32(q.shape[-1])), -jnp.inf)
    return jax.nn.softmax(scores, axis=-1) @ v


def batched_attention(q, k, v, mask):
    def step(out, i):
        one = attend(*(jnp.take(a, i, axis=0, mode="clip") for a in (q, k, v, mask)))
        hot = jax.nn.one_hot(i, q.shape[0], dtype=q.dtype)
        return out + hot[:, None, None] * one[None], None

    start = jnp.zeros(q.shape[:2] + v.shape[2:], q.dtype)
    return jax.lax.scan(step, start, jnp.arange(8))[0]
