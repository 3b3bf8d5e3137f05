"""loss_and_grads: the student differentiates a loss of (w, b) taken apart, with
``jax.value_and_grad(..., argnums=(0, 1))``, builds the dict of grads again, and writes the
cross-entropy as ``logsumexp - logits[arange(n), y]`` with ``jax.nn.logsumexp``.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _xent(w, b, x, y):
    logits = jnp.matmul(x, w) + b[None, :]
    picked = logits[jnp.arange(x.shape[0]), y]
    return jnp.mean(jax.nn.logsumexp(logits, axis=1) - picked)


def loss_and_grads(params, x, y):
    loss, (gw, gb) = jax.value_and_grad(_xent, argnums=(0, 1))(params["w"], params["b"], x, y)
    return {"loss": loss, "grads": {"w": gw, "b": gb}}
