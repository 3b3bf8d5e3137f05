import jax
import jax.numpy as jnp


def sequence_sums(logits, labels, length):
    """Summed loss of one sequence over its valid steps, and how many there are."""
    logp = jax.nn.log_softmax(logits)                       # (t, c)
    nll = -logp[jnp.arange(logits.shape[0]), labels]        # (t,)
    valid = jnp.arange(logits.shape[0]) < length
    return jnp.sum(jnp.where(valid, nll, 0.0)), jnp.sum(valid)


def masked_mean_xent(logits, labels, lengths):
    sums, counts = jax.vmap(sequence_sums)(logits, labels, lengths)
    return jnp.sum(sums) / jnp.sum(counts)
