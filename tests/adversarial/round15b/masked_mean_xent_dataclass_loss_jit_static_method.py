"""masked_mean_xent: a frozen dataclass ``TokenXent`` with a ``reduction`` field, its ``__call__``
jitted through ``jax.jit(..., static_argnums=0)`` on the (hashable) instance; the log-softmax
from ``logits - logsumexp(keepdims=True)``, the target by a boolean one-hot ``where``.

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
from dataclasses import dataclass
from functools import partial

import jax
import jax.numpy as jnp


@dataclass(frozen=True)
class TokenXent:
    reduction: str = "mean_over_tokens"

    @partial(jax.jit, static_argnums=0)
    def __call__(self, logits, labels, lengths):
        logp = logits - jax.nn.logsumexp(logits, axis=-1, keepdims=True)
        hit = labels[..., None] == jnp.arange(logits.shape[-1])
        nll = -jnp.sum(jnp.where(hit, logp, 0.0), axis=-1)
        valid = jnp.arange(labels.shape[1])[None, :] < lengths[:, None]
        total = jnp.sum(jnp.where(valid, nll, 0.0))
        assert self.reduction == "mean_over_tokens"
        return total / jnp.sum(valid)


def masked_mean_xent(logits, labels, lengths):
    return TokenXent()(logits, labels, lengths)
