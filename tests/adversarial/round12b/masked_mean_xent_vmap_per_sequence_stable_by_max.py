"""masked_mean_xent: a per-sequence function ``jax.vmap``-ed over the batch, a per-token function
``vmap``-ed over the positions inside it; the log-softmax by subtracting
``lax.stop_gradient(max)`` and ``jnp.log(jnp.sum(jnp.exp(...)))``, each token's loss chosen by
``jnp.where`` on its validity, the padded logits cleared before they are used; the sums over the
batch divided at the end.

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _token(z, label, valid):
    z = jnp.where(valid, z, jnp.zeros_like(z))
    zmax = jax.lax.stop_gradient(jnp.max(z))
    shifted = z - zmax
    lse = jnp.log(jnp.sum(jnp.exp(shifted)))
    return jnp.where(valid, lse - shifted[label], 0.0)


def _sequence(z, labels, length):
    valid = jnp.arange(labels.shape[0]) < length
    return jnp.sum(jax.vmap(_token)(z, labels, valid))


def masked_mean_xent(logits, labels, lengths):
    total = jax.vmap(_sequence)(logits, labels, lengths).sum()
    return total / jnp.sum(lengths)
