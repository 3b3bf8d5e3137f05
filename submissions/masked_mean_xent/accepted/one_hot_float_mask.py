import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    b, t, c = logits.shape
    log_probs = jax.nn.log_softmax(logits)
    targets = jax.nn.one_hot(labels, c, dtype=logits.dtype)
    nll = -jnp.sum(targets * log_probs, axis=-1)
    mask = (jnp.arange(t)[None, :] < lengths[:, None]).astype(jnp.float32)
    return jnp.sum(nll * mask) / jnp.sum(mask)
