"""masked_mean_xent: the class ids (c is the case's own number) built by a
``functools.lru_cache`` helper keyed on c, compared with the labels for a boolean one-hot; a
stable log-softmax by hand (max subtracted under ``stop_gradient``), a trace-time ``print`` and
a ``__main__`` block.

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
import functools

import jax
import jax.numpy as jnp
import numpy as np


@functools.lru_cache(maxsize=None)
def class_ids(c: int) -> np.ndarray:
    return np.arange(c, dtype=np.int32)


def log_softmax(z):
    z = z - jax.lax.stop_gradient(jnp.max(z, axis=-1, keepdims=True))
    return z - jnp.log(jnp.sum(jnp.exp(z), axis=-1, keepdims=True))


def masked_mean_xent(logits, labels, lengths):
    b, t, c = logits.shape
    print("masked_mean_xent traced with", c, "classes")
    hit = labels[..., None] == class_ids(c)
    nll = -jnp.sum(jnp.where(hit, log_softmax(logits), 0.0), axis=-1)
    valid = jnp.arange(t) < lengths[:, None]
    return jnp.sum(nll * valid) / jnp.sum(valid)


if __name__ == "__main__":
    logits = jnp.zeros((2, 3, 4))
    labels = jnp.zeros((2, 3), jnp.int32)
    print(masked_mean_xent(logits, labels, jnp.array([1, 3])))
