import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    b, t, c = logits.shape
    logp = jax.nn.log_softmax(logits, axis=-1)
    # one-hot built along the time axis: (b, c, t) read as if it were (b, t, c)
    targets = jax.nn.one_hot(labels, c, axis=1)
    nll = -jnp.sum(targets.reshape(b, t, c) * logp, axis=-1)
    mask = jnp.arange(t) < lengths[:, None]
    return jnp.sum(jnp.where(mask, nll, 0.0)) / jnp.sum(mask)
