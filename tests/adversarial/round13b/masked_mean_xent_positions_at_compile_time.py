"""masked_mean_xent: a cheat (or a misguided optimization) that builds the positions as a NumPy
constant inside ``jax.ensure_compile_time_eval``, reading t as a number; the judge traces with
t as a symbol, where that is refused.

Problem: masked_mean_xent
Expected: RJ dim_read_as_number
"""
import jax
import jax.numpy as jnp
import numpy as np


def masked_mean_xent(logits, labels, lengths):
    with jax.ensure_compile_time_eval():
        positions = np.arange(int(logits.shape[1]))
    logp = jax.nn.log_softmax(logits)
    picked = jnp.take_along_axis(logp, labels[..., None], axis=-1)[..., 0]
    valid = positions[None, :] < lengths[:, None]
    return -jnp.sum(jnp.where(valid, picked, 0.0)) / jnp.sum(valid)
