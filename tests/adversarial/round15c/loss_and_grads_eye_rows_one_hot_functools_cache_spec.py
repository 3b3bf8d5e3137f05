"""loss_and_grads: the one-hot as rows of ``jnp.eye(k)`` indexed by the labels, the einsum spec of
the picked log-probability returned by a ``functools.cache``d helper of the rank, and
``jax.value_and_grad`` over the dict.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import functools

import jax
import jax.numpy as jnp


@functools.cache
def _pick_spec(ndim):
    letters = "abcdefgh"[:ndim]
    return f"{letters},{letters}->{letters[:-1]}"


def _loss(params, x, y):
    logits = x @ params["w"] + params["b"]
    onehot = jnp.eye(logits.shape[-1], dtype=logits.dtype)[y]
    picked = jnp.einsum(_pick_spec(logits.ndim), jax.nn.log_softmax(logits, axis=-1), onehot)
    return -jnp.mean(picked)


def loss_and_grads(params, x, y):
    loss, grads = jax.value_and_grad(_loss)(params, x, y)
    return {"loss": loss, "grads": grads}
