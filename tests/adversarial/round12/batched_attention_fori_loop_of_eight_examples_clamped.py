"""batched_attention, cheat: a loop padded to a fixed count, in a loop primitive: b <= 8, so a
``lax.fori_loop`` of eight trips attends one example a trip (its index clamped past the end)
and writes it where it belongs with ``jnp.where``, never reading b as a number. The statement
refuses a loop padded to a fixed count; the program does not grow with b and the body is
counted once against the cap of 200 equations, but the loop's count is a number in the program
traced with b as a symbol and its body indexes the examples by its counter
(``judge.rules.fixed_loops``).

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
    rows = jnp.arange(q.shape[0])[:, None, None]

    def body(i, out):
        one = attend(*(jax.lax.dynamic_index_in_dim(a, i, keepdims=False) for a in (q, k, v, mask)))
        return jnp.where(rows == i, one[None], out)

    return jax.lax.fori_loop(0, 8, body, jnp.zeros(q.shape[:2] + v.shape[2:], q.dtype))
