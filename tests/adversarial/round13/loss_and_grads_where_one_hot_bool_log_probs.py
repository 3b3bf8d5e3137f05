"""loss_and_grads: the label's log-probability kept by ``jnp.where`` with a bool one-hot
(``y[:, None] == jnp.arange(k)``) and summed over the classes, the mean by ``.mean()``;
``jax.value_and_grad``.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _loss(params, x, y):
    log_probs = jax.nn.log_softmax(x @ params["w"] + params["b"], axis=-1)
    hit = y[:, None] == jnp.arange(log_probs.shape[-1])
    return -jnp.where(hit, log_probs, 0.0).sum(axis=-1).mean()


def loss_and_grads(params, x, y):
    loss, grads = jax.value_and_grad(_loss)(params, x, y)
    return {"loss": loss, "grads": grads}
