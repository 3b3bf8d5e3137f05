"""loss_and_grads: ``from __future__ import annotations``; ``jax.vjp`` of the logits as a function
of the parameters, the loss and its derivative by the logits written from the stable
log-softmax (``logits - max`` by ``jnp.max(..., keepdims=True)``), pulled back once.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
from __future__ import annotations

import jax
import jax.numpy as jnp


def loss_and_grads(params: dict[str, jax.Array], x: jax.Array, y: jax.Array) -> dict:
    logits, pull = jax.vjp(lambda p: x @ p["w"] + p["b"], params)
    shifted = logits - jnp.max(logits, axis=-1, keepdims=True)
    log_probs = shifted - jnp.log(jnp.sum(jnp.exp(shifted), axis=-1, keepdims=True))
    labels = jnp.arange(logits.shape[-1])[None, :] == y[:, None]
    loss = -jnp.mean(jnp.sum(jnp.where(labels, log_probs, 0.0), axis=-1))
    seed = (jnp.exp(log_probs) - labels.astype(jnp.float32)) / x.shape[0]
    (grads,) = pull(seed)
    return {"loss": loss, "grads": grads}
