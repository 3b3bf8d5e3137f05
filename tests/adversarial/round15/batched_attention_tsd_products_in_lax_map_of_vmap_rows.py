"""batched_attention, cheat on the size bound: ``jax.lax.map`` over the examples, each attending
its queries by a ``vmap`` over rows whose scores come from the broadcast product
``(q_row[None, :] * k).sum(-1)``: vmapped, that is a (t, s, d) value per example, never
b * t * s * d at once.

Problem: batched_attention
Expected: RJ intermediate_too_large
Cases: all
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    def row(qr, mr):
        s = (qr[None, :] * k).sum(-1) / jnp.sqrt(jnp.float32(q.shape[-1]))
        w = jax.nn.softmax(jnp.where(mr, s, -jnp.inf))
        return w @ v

    return jax.vmap(row)(q, mask)


def batched_attention(q, k, v, mask):
    return jax.lax.map(lambda ex: attend(*ex), (q, k, v, mask))
