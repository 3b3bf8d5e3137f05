"""batched_attention, honest: ``attend`` a ``vmap`` over the keys with ``axis_name="key"``, each
key's score column made by a product with the queries, the rows' maxima taken across the
vmapped axis by ``lax.pmax`` of the stopped scores (``pmax`` has no derivative rule: stopped
first, it needs none), the hidden ones set to ``-inf`` before the ``exp``, the rows' sums by
``lax.psum``; the output from the stacked weights
by one product, outside the inner ``vmap``.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def attend(q, k, v, mask):
    scale = 1.0 / jnp.sqrt(jnp.float32(q.shape[-1]))

    def key(kl, ml):
        s = (q @ kl) * scale
        m = lax.pmax(lax.stop_gradient(jnp.where(ml, s, -jnp.inf)), "key")
        e = jnp.exp(jnp.where(ml, s - m, -jnp.inf))
        return e / lax.psum(e, "key")

    weights = jax.vmap(key, in_axes=(0, 1), out_axes=1, axis_name="key")(k, mask)
    return weights @ v


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
