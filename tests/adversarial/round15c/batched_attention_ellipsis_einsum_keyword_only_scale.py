"""batched_attention: ``attend`` with a keyword-only ``scale=None`` defaulting to
``lax.rsqrt`` of the width, scores and output by ``jnp.einsum`` with an ellipsis
(``"...td,...sd->...ts"``), the softmax by hand with a max over the visible scores,
``jnp.expand_dims`` for the row sums, and ``*args`` forwarded through ``jax.vmap``.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def attend(q, k, v, mask, *, scale=None):
    if scale is None:
        scale = lax.rsqrt(jnp.float32(q.shape[-1]))
    scores = jnp.einsum("...td,...sd->...ts", q, k) * scale
    masked = jnp.where(mask, scores, -jnp.inf)
    top = jax.lax.stop_gradient(jnp.max(masked, axis=-1))
    e = jnp.where(mask, jnp.exp(masked - jnp.expand_dims(top, -1)), 0.0)
    weights = e / jnp.expand_dims(jnp.sum(e, axis=-1), -1)
    return jnp.einsum("...ts,...se->...te", weights, v)


def batched_attention(*args):
    return jax.vmap(lambda *a: attend(*a))(*args)


if __name__ == "__main__":
    q = jnp.ones((2, 3, 4))
    mask = jnp.ones((2, 3, 5), bool)
    print(batched_attention(q, jnp.ones((2, 5, 4)), jnp.ones((2, 5, 6)), mask).shape)
