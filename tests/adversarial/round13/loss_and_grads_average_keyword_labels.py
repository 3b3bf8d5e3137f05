"""loss_and_grads: a loss taking its labels by keyword, the mean by ``jnp.average``, the
negative log-likelihood from ``log_softmax`` picked by ``take_along_axis``;
``jax.value_and_grad`` called with the keyword.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def nll_loss(params, inputs, *, labels):
    logits = jnp.matmul(inputs, params["w"]) + params["b"]
    picked = jnp.take_along_axis(jax.nn.log_softmax(logits), labels[:, None], axis=1)
    return -jnp.average(picked)


def loss_and_grads(params, x, y):
    loss, grads = jax.value_and_grad(nll_loss)(params, x, labels=y)
    return {"loss": loss, "grads": grads}
