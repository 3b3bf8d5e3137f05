"""masked_mean_xent: a general loss jitted with ``static_argnames=("reduction",)`` (``"mean"``
over the valid tokens, ``"sum"`` beside it), the entry point calling it with ``"mean"``; the
target picked with ``jnp.take_along_axis`` from ``logits - logsumexp``.

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("reduction",))
def token_xent(logits, labels, lengths, reduction="mean"):
    lse = jax.nn.logsumexp(logits, axis=-1)
    target = jnp.take_along_axis(logits, labels[..., None], axis=-1)[..., 0]
    nll = lse - target
    valid = jnp.arange(logits.shape[1])[None, :] < lengths[:, None]
    total = jnp.sum(jnp.where(valid, nll, 0.0))
    if reduction == "sum":
        return total
    return total / jnp.sum(valid)


def masked_mean_xent(logits, labels, lengths):
    return token_xent(logits, labels, lengths, reduction="mean")
