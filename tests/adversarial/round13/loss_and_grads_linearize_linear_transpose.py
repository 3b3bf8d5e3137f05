"""loss_and_grads: ``jax.linearize`` of the loss at the params (the loss and its linear map from
one forward pass), the gradient by ``jax.linear_transpose`` of that map pulled back at one.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _loss(params, x, y):
    logits = x @ params["w"] + params["b"]
    return jnp.mean(jax.nn.logsumexp(logits, axis=-1) - jnp.take_along_axis(logits, y[:, None], axis=-1)[:, 0])


def loss_and_grads(params, x, y):
    loss, lin = jax.linearize(lambda p: _loss(p, x, y), params)
    (grads,) = jax.linear_transpose(lin, params)(jnp.ones_like(loss))
    return {"loss": loss, "grads": grads}
