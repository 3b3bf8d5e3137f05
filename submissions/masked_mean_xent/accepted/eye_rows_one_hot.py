import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    # each label's one-hot vector is a row of the c x c identity, picked by indexing
    c = logits.shape[-1]
    targets = jnp.eye(c, dtype=logits.dtype)[labels]            # (b, t, c)
    log_probs = logits - jax.nn.logsumexp(logits, axis=-1, keepdims=True)
    nll = -jnp.einsum("btc,btc->bt", targets, log_probs)
    valid = jnp.arange(logits.shape[1])[None, :] < lengths[:, None]
    return jnp.sum(jnp.where(valid, nll, 0.0)) / jnp.sum(lengths)
