"""loss_and_grads: labels cast ``astype(jnp.int64)`` (int32 with 64-bit types off: JAX
warns and keeps int32), ``jax.tree_util.tree_map`` over the gradients to make sure of float32, and
``jax.value_and_grad`` on params as a whole.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def cross_entropy(params, x, y):
    logits = x @ params["w"] + params["b"]
    logp = logits - jax.nn.logsumexp(logits, axis=1, keepdims=True)
    return -jnp.mean(jnp.take_along_axis(logp, y[:, None], axis=1))


def loss_and_grads(params, x, y):
    labels = y.astype(jnp.int64)
    loss, grads = jax.value_and_grad(cross_entropy)(params, x, labels)
    grads = jax.tree_util.tree_map(lambda g: g.astype(jnp.float32), grads)
    return {"loss": loss.astype(jnp.float32), "grads": grads}
