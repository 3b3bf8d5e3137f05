import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    logp = jax.nn.log_softmax(logits, axis=1)
    onehot = jax.nn.one_hot(labels, logits.shape[2])
    nll = -jnp.sum(onehot * logp, axis=2)
    mask = jnp.arange(logits.shape[1]) < lengths[:, None]
    return jnp.sum(jnp.where(mask, nll, 0.0)) / jnp.sum(mask)
