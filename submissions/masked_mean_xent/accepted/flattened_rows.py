import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    b, t, c = logits.shape
    flat = logits.reshape(b * t, c)
    logp = jax.nn.log_softmax(flat, axis=1)
    nll = -logp[jnp.arange(b * t), labels.reshape(b * t)]
    valid = (jnp.arange(t)[None, :] < lengths[:, None]).reshape(b * t)
    return jnp.sum(jnp.where(valid, nll, 0.0)) / jnp.sum(valid)
