import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    total, count = 0.0, 0
    for i in range(logits.shape[0]):
        logp = jax.nn.log_softmax(logits[i], axis=-1)
        nll = -jnp.take_along_axis(logp, labels[i][:, None], axis=-1)[:, 0]
        valid = jnp.arange(logits.shape[1]) < lengths[i]
        total = total + jnp.sum(jnp.where(valid, nll, 0.0))
        count = count + lengths[i]
    return total / count
