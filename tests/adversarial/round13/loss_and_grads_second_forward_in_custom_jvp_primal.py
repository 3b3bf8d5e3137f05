"""loss_and_grads, cheat: the gradient by ``jax.grad`` (two products) and the loss by a second
forward pass inside a ``jax.custom_jvp`` function whose rule says its tangent is zero: the
custom rule's primal holds the third product ``x @ w``.

Problem: loss_and_grads
Expected: RJ repeated_computation
Cases: all
"""
import jax
import jax.numpy as jnp


def _xent(params, x, y):
    logits = x @ params["w"] + params["b"]
    return jnp.mean(jax.nn.logsumexp(logits, axis=1) - jnp.take_along_axis(logits, y[:, None], 1)[:, 0])


@jax.custom_jvp
def _report(params, x, y):
    return _xent(params, x, y)


@_report.defjvp
def _report_jvp(primals, tangents):
    return _report(*primals), jnp.zeros((), jnp.float32)


def loss_and_grads(params, x, y):
    return {"loss": _report(params, x, y), "grads": jax.grad(_xent)(params, x, y)}
