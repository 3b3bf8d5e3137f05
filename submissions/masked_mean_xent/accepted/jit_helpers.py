import jax
import jax.numpy as jnp


@jax.jit
def sequence_mask(lengths, logits):
    steps = jnp.arange(logits.shape[1])
    return steps[None, :] < lengths[:, None]


@jax.jit
def token_nll(logits, labels):
    logp = jax.nn.log_softmax(logits, axis=-1)
    return -jnp.take_along_axis(logp, labels[..., None], axis=-1)[..., 0]


@jax.jit
def masked_mean_xent(logits, labels, lengths):
    mask = sequence_mask(lengths, logits)
    nll = token_nll(logits, labels)
    return jnp.sum(jnp.where(mask, nll, 0)) / jnp.count_nonzero(mask)
