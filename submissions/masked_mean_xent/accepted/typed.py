from typing import Tuple

import jax
import jax.numpy as jnp
from jax import Array


def valid_positions(lengths: Array, steps: int) -> Array:
    return jnp.arange(steps)[None, :] < lengths[:, None]


def nll_and_weights(logits: Array, labels: Array, lengths: Array) -> Tuple[Array, Array]:
    logp: Array = jax.nn.log_softmax(logits, axis=-1)
    nll: Array = -jnp.take_along_axis(logp, labels[..., None], axis=-1).squeeze(-1)
    weights: Array = valid_positions(lengths, logits.shape[1]).astype(jnp.float32)
    return nll, weights / weights.sum()


def masked_mean_xent(logits: Array, labels: Array, lengths: Array) -> Array:
    nll, weights = nll_and_weights(logits, labels, lengths)
    # padded positions get weight exactly 0, and their nll is finite
    return jnp.sum(weights * nll)
