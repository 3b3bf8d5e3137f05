"""masked_mean_xent: a ``dataclass`` ``MaskedXent`` with ``__call__``, the token losses as
``logsumexp`` minus the target logit taken with ``jnp.take_along_axis``, the mask from
``lengths`` by ``jnp.arange`` and a float cast, divided by the mask's sum.

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
from dataclasses import dataclass

import jax
import jax.numpy as jnp
from jax.scipy.special import logsumexp


@dataclass(frozen=True)
class MaskedXent:
    axis: int = -1

    def token_losses(self, logits: jax.Array, labels: jax.Array) -> jax.Array:
        target = jnp.take_along_axis(logits, labels[..., None], axis=self.axis)[..., 0]
        return logsumexp(logits, axis=self.axis) - target

    def __call__(self, logits, labels, lengths):
        mask = (jnp.arange(logits.shape[1])[None, :] < lengths[:, None]).astype(logits.dtype)
        return jnp.sum(self.token_losses(logits, labels) * mask) / jnp.sum(mask)


def masked_mean_xent(logits, labels, lengths):
    return MaskedXent()(logits, labels, lengths)
