import jax
import jax.numpy as jnp


def token_loss(z, y):
    return jax.nn.logsumexp(z) - z[y]


def masked_mean_xent(logits, labels, lengths):
    per_token = jax.vmap(jax.vmap(token_loss))(logits, labels)         # (b, t)
    steps = jax.lax.broadcasted_iota(jnp.int32, labels.shape, 1)
    valid = steps < lengths[:, None]
    return jnp.sum(jnp.where(valid, per_token, 0.0)) / jnp.sum(valid.astype(jnp.float32))
