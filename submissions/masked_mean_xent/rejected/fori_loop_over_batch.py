import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    def body(i, total):
        logp = jax.nn.log_softmax(logits[i])
        nll = -jnp.take_along_axis(logp, labels[i][:, None], axis=-1)[:, 0]
        return total + jnp.sum(jnp.where(jnp.arange(logits.shape[1]) < lengths[i], nll, 0.0))

    total = jax.lax.fori_loop(0, logits.shape[0], body, jnp.float32(0.0))
    return total / jnp.sum(lengths)
