import jax
import jax.numpy as jnp


class Attention:
    def __init__(self, d):
        self.scale = 1.0 / jnp.sqrt(d)

    def __call__(self, q, k, v, mask):
        logits = jnp.matmul(q, jnp.swapaxes(k, -1, -2)) * self.scale
        w = jax.nn.softmax(logits, axis=-1, where=mask)
        w = jnp.where(mask, w, 0.0)
        return jnp.matmul(w, v)


def batched_attention(q, k, v, mask):
    return jax.vmap(Attention(q.shape[-1]))(q, k, v, mask)
