import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    logp = jax.nn.log_softmax(logits, axis=-1)
    nll = -jnp.take_along_axis(logp, labels[..., None], axis=-1)[..., 0]
    mask = jnp.arange(logits.shape[1]) < lengths[:, None]
    per_sequence = jnp.sum(jnp.where(mask, nll, 0.0), axis=1) / lengths
    return jnp.mean(per_sequence)
