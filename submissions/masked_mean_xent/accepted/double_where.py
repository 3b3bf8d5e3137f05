import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    valid = jnp.arange(logits.shape[1])[None, :] < lengths[:, None]
    # padded logits are replaced by zeros first, so nothing at those positions can overflow
    safe = jnp.where(valid[..., None], logits, 0.0)
    lse = jax.nn.logsumexp(safe, axis=-1)
    picked = jnp.take_along_axis(safe, labels[..., None], axis=-1)[..., 0]
    loss = jnp.where(valid, lse - picked, 0.0)
    return loss.sum() / valid.sum()
