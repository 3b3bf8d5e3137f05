"""masked_mean_xent: an honest forward in a ``jax.custom_vjp`` whose backward returns zeros. The
value is right; the judge's vjp, traced into the program every case runs, is not.

Problem: masked_mean_xent
Expected: WA wrong_vjp
"""

import jax
import jax.numpy as jnp


@jax.custom_vjp
def masked_mean_xent(logits, labels, lengths):
    picked = jnp.take_along_axis(jax.nn.log_softmax(logits, -1), labels[..., None], -1)[..., 0]
    valid = jnp.arange(logits.shape[1])[None, :] < lengths[:, None]
    return jnp.sum(jnp.where(valid, -picked, 0.0)) / jnp.sum(valid).astype(logits.dtype)


def _fwd(logits, labels, lengths):
    return masked_mean_xent(logits, labels, lengths), logits


def _bwd(logits, g):
    return jnp.zeros_like(logits), None, None


masked_mean_xent.defvjp(_fwd, _bwd)
