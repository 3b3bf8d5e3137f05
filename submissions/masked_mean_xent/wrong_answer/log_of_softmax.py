import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    probs = jax.nn.softmax(logits, axis=-1)
    p_target = jnp.take_along_axis(probs, labels[..., None], axis=-1)[..., 0]
    nll = -jnp.log(p_target)
    mask = jnp.arange(logits.shape[1]) < lengths[:, None]
    return jnp.sum(jnp.where(mask, nll, 0.0)) / jnp.sum(mask)
