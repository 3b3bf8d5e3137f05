"""batched_attention: ``jax.lax.map`` over the examples with ``batch_size=4``: JAX scans over b //
4 batches of the vmapped function and maps the rest apart, so the body is traced twice: the
program, with the judge's vjp, has 158 equations (the cap is 200). Where b < 4 the batches' scan
runs no trip, and its body's (4, t, s) scores, over the size bound there, are never computed.

Problem: batched_attention
Expected: AC
"""
import jax
import jax.numpy as jnp


def attend(xs):
    q, k, v, mask = xs
    s = jnp.where(mask, q @ k.T / jnp.sqrt(q.shape[-1]), -jnp.inf)
    return jax.nn.softmax(s, axis=-1) @ v


def batched_attention(q, k, v, mask):
    return jax.lax.map(attend, (q, k, v, mask), batch_size=4)
