"""loss_and_grads, wrong: a label-smoothed cross-entropy (0.1 spread over the classes), which the
statement does not ask for.

Expected: WA wrong_value
"""
import jax
import jax.numpy as jnp


def _loss(params, x, y):
    logits = x @ params["w"] + params["b"]
    k = logits.shape[-1]
    target = 0.9 * jax.nn.one_hot(y, k) + 0.1 / k
    return -jnp.mean(jnp.sum(target * jax.nn.log_softmax(logits), axis=-1))


def loss_and_grads(params, x, y):
    loss, grads = jax.value_and_grad(_loss)(params, x, y)
    return {"loss": loss, "grads": grads}
