import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    t = logits.shape[1]
    steps = [
        jnp.where(j < lengths,
                  -jnp.take_along_axis(jax.nn.log_softmax(logits[:, j]), labels[:, j, None], axis=-1)[:, 0],
                  0.0)
        for j in range(t)
    ]
    return jnp.sum(jnp.stack(steps)) / jnp.sum(lengths)
