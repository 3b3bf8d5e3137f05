"""batched_attention: ``jax.lax.map`` over the examples with ``batch_size=4``: JAX scans over b //
4 batches of the vmapped function and maps the rest apart, so the body is traced twice. Nothing
grows with b, but the program, with the judge's vjp, has 158 equations against the statement's
cap of 150, and the message blames a Python loop over b that the file does not have.

Problem: batched_attention
Expected: AC
Open: an honest lax.map with batch_size traces its body twice (batches and rest) and exceeds the
  150-equation cap of no_unrolling; with the cap raised, the body's batch of 4 examples is still a
  (4, t, s) value over the size bound where b < 4 (a loop of no trip, never computed)
"""
import jax
import jax.numpy as jnp


def attend(xs):
    q, k, v, mask = xs
    s = jnp.where(mask, q @ k.T / jnp.sqrt(q.shape[-1]), -jnp.inf)
    return jax.nn.softmax(s, axis=-1) @ v


def batched_attention(q, k, v, mask):
    return jax.lax.map(attend, (q, k, v, mask), batch_size=4)
