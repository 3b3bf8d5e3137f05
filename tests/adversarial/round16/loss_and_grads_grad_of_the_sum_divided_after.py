"""loss_and_grads, honest: ``value_and_grad`` of the summed cross-entropy (not the mean), the
loss and every leaf of the gradient divided by n afterwards with ``jax.tree.map``.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _summed(params, x, y):
    logits = x @ params["w"] + params["b"]
    return jnp.sum(jax.nn.logsumexp(logits, axis=1) - jnp.take_along_axis(logits, y[:, None], 1)[:, 0])


def loss_and_grads(params, x, y):
    total, g = jax.value_and_grad(_summed)(params, x, y)
    n = x.shape[0]
    return {"loss": total / n, "grads": jax.tree.map(lambda a: a / n, g)}
