"""batched_attention: d is the case's number, so the scores are summed over a Python loop of d
rank- one (b, t, s) terms: no b t s d value, but the program grows with d, and at d = 16 it
passes the equation cap (the examples have d = 1 and 4).

Problem: batched_attention
Expected: RJ unrolled_loop
Cases: all
"""
import jax
import jax.numpy as jnp


def batched_attention(q, k, v, mask):
    # d is a number: the scores as d rank-one (b, t, s) updates, never a b t s d value
    d = q.shape[-1]
    s = jnp.zeros(mask.shape, jnp.float32)
    for j in range(d):
        s = s + q[:, :, j][:, :, None] * k[:, :, j][:, None, :]
    w = jax.nn.softmax(jnp.where(mask, s / jnp.sqrt(d), -jnp.inf), axis=-1)
    return w @ v
