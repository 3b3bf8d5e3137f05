"""masked_mean_xent: the padded logits replaced by zeros with ``jnp.where`` before the
log-softmax (so nothing large is ever exponentiated there), the loss as ``jnp.average`` of the
per-token losses weighted by the float mask.

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    valid = jnp.arange(logits.shape[1])[None, :] < lengths[:, None]
    clean = jnp.where(valid[..., None], logits, 0.0)
    logp = jax.nn.log_softmax(clean, axis=-1)
    nll = -jnp.take_along_axis(logp, labels[..., None], axis=-1)[..., 0]
    return jnp.average(nll, weights=valid.astype(jnp.float32))
