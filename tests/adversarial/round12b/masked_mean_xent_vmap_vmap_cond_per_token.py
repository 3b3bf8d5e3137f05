"""masked_mean_xent: a per-token loss ``jax.vmap``-ed over positions and then over sequences,
each token choosing with ``lax.cond(valid, ...)`` between its cross-entropy (by
``jax.nn.log_softmax``) and 0 (under vmap both branches run and a select picks), the padded
logits zeroed before the log-softmax.

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def _token(z, label, valid):
    z = jnp.where(valid, z, 0.0)
    return lax.cond(valid, lambda: -jax.nn.log_softmax(z)[label], lambda: jnp.float32(0.0))


def masked_mean_xent(logits, labels, lengths):
    t = logits.shape[1]
    valid = jnp.arange(t)[None, :] < lengths[:, None]
    per_token = jax.vmap(jax.vmap(_token))(logits, labels, valid)
    return per_token.sum() / lengths.sum()
