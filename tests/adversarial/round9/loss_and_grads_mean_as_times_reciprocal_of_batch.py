"""loss_and_grads: the mean written as a sum times ``1.0 / x.shape[0]`` (a symbolic batch size
turned into a float by JAX), the log-softmax by ``logits - jax.nn.logsumexp(keepdims=True)``,
the label's entry by fancy indexing with ``jnp.arange``, the gradient by
``jax.value_and_grad`` with ``argnums=0`` of a three-argument loss.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _loss(params, x, y):
    logits = x @ params["w"] + params["b"]
    logp = logits - jax.nn.logsumexp(logits, axis=1, keepdims=True)
    return -jnp.sum(logp[jnp.arange(x.shape[0]), y]) * (1.0 / x.shape[0])


def loss_and_grads(params, x, y):
    loss, grads = jax.value_and_grad(_loss, argnums=0)(params, x, y)
    return {"loss": loss, "grads": grads}
