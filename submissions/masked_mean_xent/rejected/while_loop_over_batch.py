import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    b = logits.shape[0]

    def cond(state):
        return state[0] < b

    def body(state):
        i, total = state
        z = jax.lax.dynamic_index_in_dim(logits, i, keepdims=False)
        y = jax.lax.dynamic_index_in_dim(labels, i, keepdims=False)
        nll = jax.nn.logsumexp(z, axis=-1) - jnp.take_along_axis(z, y[:, None], axis=-1)[:, 0]
        n = jax.lax.dynamic_index_in_dim(lengths, i, keepdims=False)
        return i + 1, total + jnp.sum(jnp.where(jnp.arange(z.shape[0]) < n, nll, 0.0))

    _, total = jax.lax.while_loop(cond, body, (0, jnp.float32(0.0)))
    return total / jnp.sum(lengths)
