import jax
import jax.numpy as jnp


def one_query(q_row, k, v, mask_row):
    scores = k @ q_row / jnp.sqrt(q_row.shape[0] * 1.0)
    log_w = jax.nn.log_softmax(jnp.where(mask_row, scores, -jnp.inf))
    return jnp.exp(log_w) @ v


def attend(q, k, v, mask):
    return jax.vmap(one_query, in_axes=(0, None, None, 0))(q, k, v, mask)


batched_attention = jax.vmap(attend)
