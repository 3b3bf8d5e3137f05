import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    num_classes = logits.shape[-1]
    log_probs = jax.nn.log_softmax(logits, axis=-1)
    mask = (jnp.arange(logits.shape[1]) < lengths[:, None]).astype(logits.dtype)
    targets = jax.nn.one_hot(labels, num_classes, dtype=logits.dtype)
    total = -jnp.einsum("btc,btc,bt->", targets, log_probs, mask)
    return total / mask.sum()
