"""loss_and_grads: the labels compared as floats with ``jnp.arange(k, dtype=float32)`` to make
the one-hot, the picked log-probabilities by ``jnp.einsum('nk,nk->n', onehot, logp)``,
``jax.value_and_grad`` over ``functools.partial`` with x and y as keywords.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import functools

import jax
import jax.numpy as jnp


def loss_fn(params, *, x, y):
    logits = x @ params["w"] + params["b"]
    k = logits.shape[-1]
    onehot = (y.astype(jnp.float32)[:, None] == jnp.arange(k, dtype=jnp.float32)).astype(jnp.float32)
    logp = jax.nn.log_softmax(logits, axis=-1)
    return -jnp.mean(jnp.einsum("nk,nk->n", onehot, logp))


def loss_and_grads(params, x, y):
    loss, grads = jax.value_and_grad(functools.partial(loss_fn, x=x, y=y))(params)
    return {"loss": loss, "grads": grads}
