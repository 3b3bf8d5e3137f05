"""batched_attention, cheat: the loop padded to a fixed count of
``batched_attention_fori_loop_of_eight_examples_clamped.py`` as a ``lax.while_loop`` whose
counter stops at the constant 8 (b <= 8), each trip attending the example the counter names
and writing it back with ``.at[i].set(..., mode="drop")``: the count is a number in the program
traced with b as a symbol, and the body indexes the examples by the counter (without the
rule it fails the VJP probe anyway: reverse mode does not enter a ``while_loop``).

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
    last = q.shape[0] - 1

    def body(carry):
        i, out = carry
        j = jnp.minimum(i, last)
        one = attend(q[j], k[j], v[j], mask[j])
        return i + 1, out.at[i].set(one, mode="drop")

    start = (0, jnp.zeros(q.shape[:2] + v.shape[2:], q.dtype))
    return jax.lax.while_loop(lambda c: c[0] < 8, body, start)[1]
