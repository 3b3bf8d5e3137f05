"""batched_attention: ``jax.nn.dot_product_attention`` for one example under ``vmap``, e made
equal to the queries' width by padding: queries and keys get e zero columns and the values d
zero columns in front (the scores unchanged), the scale given as 1 / sqrt(d), the mask a
heads axis of one; the output's last e columns are the attention.

Problem: batched_attention
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def attend(q, k, v, mask):
    d, e = q.shape[-1], v.shape[-1]
    qp = jnp.concatenate([q, jnp.zeros((q.shape[0], e), q.dtype)], axis=-1)
    kp = jnp.concatenate([k, jnp.zeros((k.shape[0], e), k.dtype)], axis=-1)
    vp = jnp.concatenate([jnp.zeros((v.shape[0], d), v.dtype), v], axis=-1)
    out = jax.nn.dot_product_attention(qp[:, None, :], kp[:, None, :], vp[:, None, :],
                                       mask=mask[None], scale=1.0 / d ** 0.5)
    return out[:, 0, d:]


def batched_attention(q, k, v, mask):
    return jax.vmap(attend)(q, k, v, mask)
