import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    c = logits.shape[-1]
    log_norm = jnp.log(jnp.sum(jnp.exp(logits), axis=-1))
    target = jnp.sum(jax.nn.one_hot(labels, c) * logits, axis=-1)
    mask = (jnp.arange(logits.shape[1]) < lengths[:, None]).astype(jnp.float32)
    return jnp.sum((log_norm - target) * mask) / jnp.sum(mask)
