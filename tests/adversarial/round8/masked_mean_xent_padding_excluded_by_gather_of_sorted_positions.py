"""masked_mean_xent: the valid positions moved to the front with a stable ``jnp.argsort`` of the
padding flags over the flattened tokens, so the loss can sum a prefix; the prefix is chosen with a
mask against the count N (a traced value), never a slice of traced length.

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    b, t, c = logits.shape
    valid = (jnp.arange(t)[None, :] < lengths[:, None]).reshape(-1)
    order = jnp.argsort(~valid, stable=True)
    z = logits.reshape(-1, c)[order]
    lab = labels.reshape(-1)[order]
    n = jnp.sum(lengths)
    keep = jnp.arange(z.shape[0]) < n
    z = jnp.where(keep[:, None], z, 0.0)
    logp = jax.nn.log_softmax(z)
    nll = -jnp.take_along_axis(logp, lab[:, None], axis=1)[:, 0]
    return jnp.sum(jnp.where(keep, nll, 0.0)) / n
