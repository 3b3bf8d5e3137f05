import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    def step(carry, xs):
        total, j = carry
        z, y = xs                                   # (b, c), (b,)
        nll = jax.nn.logsumexp(z, axis=-1) - jnp.take_along_axis(z, y[:, None], axis=-1)[:, 0]
        total = total + jnp.sum(jnp.where(j < lengths, nll, 0.0))
        return (total, j + 1), None

    (total, _), _ = jax.lax.scan(step, (jnp.float32(0.0), 0),
                                 (jnp.swapaxes(logits, 0, 1), jnp.swapaxes(labels, 0, 1)))
    return total / jnp.sum(lengths)
