"""loss_and_grads: logits by ``jnp.einsum("nd,dk->nk", ..., optimize="greedy")``, the loss
returned as its own aux by ``jax.grad(..., has_aux=True)`` (the aux a stopped copy, one forward
pass), the one-hot by comparing with ``jnp.arange(k)``.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _loss(params, x, y):
    logits = jnp.einsum("nd,dk->nk", x, params["w"], optimize="greedy") + params["b"]
    hot = (y[:, None] == jnp.arange(logits.shape[1])[None, :]).astype(logits.dtype)
    loss = -jnp.mean(jnp.sum(hot * jax.nn.log_softmax(logits), axis=1))
    return loss, jax.lax.stop_gradient(loss)


def loss_and_grads(params, x, y):
    grads, loss = jax.grad(_loss, has_aux=True)(params, x, y)
    return {"loss": loss, "grads": grads}
