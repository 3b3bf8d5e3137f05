import jax
import jax.numpy as jnp


def stable_log_softmax(z):
    # subtract the row maximum (a constant for differentiation) before exponentiating
    shifted = z - jax.lax.stop_gradient(jnp.max(z, axis=-1, keepdims=True))
    return shifted - jnp.log(jnp.sum(jnp.exp(shifted), axis=-1, keepdims=True))


def masked_mean_xent(logits, labels, lengths):
    logp = stable_log_softmax(logits)
    nll = -jnp.take_along_axis(logp, jnp.expand_dims(labels, -1), axis=-1)[..., 0]
    mask = jnp.arange(labels.shape[1]) < jnp.expand_dims(lengths, 1)
    nll = jnp.where(mask, nll, jnp.zeros_like(nll))
    return jnp.sum(nll) / jnp.maximum(jnp.sum(mask), 1)
