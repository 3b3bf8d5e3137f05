"""loss_and_grads, two passes: the loss under jax.checkpoint, so the backward pass recomputes the
forward pass (x @ w a second time, which is what rematerialisation does): a second forward
pass all the same, as the statement's rule counts products.

Expected: RJ repeated_computation
"""
import jax
import jax.numpy as jnp


@jax.checkpoint
def _loss(params, x, y):
    logits = x @ params["w"] + params["b"]
    return -jnp.mean(jnp.sum(jax.nn.one_hot(y, logits.shape[-1]) * jax.nn.log_softmax(logits), axis=-1))


def loss_and_grads(params, x, y):
    loss, grads = jax.value_and_grad(_loss)(params, x, y)
    return {"loss": loss, "grads": grads}
