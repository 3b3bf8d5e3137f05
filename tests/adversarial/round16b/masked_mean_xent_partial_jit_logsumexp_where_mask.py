"""masked_mean_xent: honest code under ``functools.partial(jax.jit, static_argnames=...)`` (a
static reduction name), ``logsumexp`` minus the target logit, padding chosen away by ``jnp.where``
after the padded logits are replaced by zeros (so nothing infinite is computed there).

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
import functools

import jax
import jax.numpy as jnp
from jax.scipy.special import logsumexp


@functools.partial(jax.jit, static_argnames=("reduction",))
def _loss(logits, labels, lengths, reduction="mean"):
    valid = jnp.arange(logits.shape[1])[None, :] < lengths[:, None]
    safe = jnp.where(valid[..., None], logits, 0.0)
    target = jnp.take_along_axis(safe, labels[..., None], axis=-1)[..., 0]
    per_token = jnp.where(valid, logsumexp(safe, axis=-1) - target, 0.0)
    total = jnp.sum(per_token)
    if reduction == "sum":
        return total
    return total / jnp.sum(valid)


def masked_mean_xent(logits, labels, lengths):
    return _loss(logits, labels, lengths, reduction="mean")
