"""loss_and_grads: the label's log-probability picked by ``jnp.take`` from the flattened
``log_softmax`` at ``arange(n) * k + y`` (the extents read from the shapes, symbolic), the mean
by ``jnp.mean``; ``jax.value_and_grad``.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _loss(params, x, y):
    log_probs = jax.nn.log_softmax(x @ params["w"] + params["b"])
    n, k = log_probs.shape
    flat = jnp.arange(n) * k + y
    return -jnp.mean(jnp.take(log_probs.reshape(-1), flat))


def loss_and_grads(params, x, y):
    loss, grads = jax.value_and_grad(_loss)(params, x, y)
    return {"loss": loss, "grads": grads}
