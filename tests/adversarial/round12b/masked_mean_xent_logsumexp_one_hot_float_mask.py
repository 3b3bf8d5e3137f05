"""masked_mean_xent: ``jax.scipy.special.logsumexp`` minus the target logit picked by a one-hot
(``jax.nn.one_hot`` with the c classes), a float mask from ``lax.broadcasted_iota`` compared
with the lengths multiplied into the logits before anything is computed (the padding zeroed),
the mean by ``jnp.sum(mask * nll) / jnp.sum(mask)``.

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax
from jax.scipy.special import logsumexp


def masked_mean_xent(logits: jax.Array, labels: jax.Array, lengths: jax.Array) -> jax.Array:
    c = logits.shape[-1]
    pos = lax.broadcasted_iota(jnp.int32, labels.shape, 1)
    mask = (pos < lengths[:, None]).astype(jnp.float32)
    z = logits * mask[:, :, None]
    target = jnp.sum(z * jax.nn.one_hot(labels, c, dtype=z.dtype), axis=-1)
    nll = logsumexp(z, axis=-1) - target
    return jnp.sum(mask * nll) / jnp.sum(mask)
