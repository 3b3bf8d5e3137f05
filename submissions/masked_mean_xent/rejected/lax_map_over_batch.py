import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    def one_sequence(args):
        z, y, n = args
        logp = jax.nn.log_softmax(z)
        nll = -jnp.take_along_axis(logp, y[:, None], axis=-1)[:, 0]
        return jnp.sum(jnp.where(jnp.arange(z.shape[0]) < n, nll, 0.0))

    sums = jax.lax.map(one_sequence, (logits, labels, lengths))
    return jnp.sum(sums) / jnp.sum(lengths)
