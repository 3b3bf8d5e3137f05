"""loss_and_grads: the loss a ``jax.tree_util.Partial`` closed over x and y, so that
``jax.value_and_grad`` of it takes the params alone; logits by ``jnp.dot``, the mean of
``-log_softmax`` at the label by indexing with ``jnp.arange``.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax.tree_util import Partial


def _xent(x, y, params):
    log_p = jax.nn.log_softmax(jnp.dot(x, params["w"]) + params["b"], axis=1)
    return -jnp.mean(log_p[jnp.arange(x.shape[0]), y])


def loss_and_grads(params, x, y):
    f = Partial(_xent, x, y)
    loss, grads = jax.value_and_grad(f)(params)
    return {"loss": loss, "grads": grads}
