"""loss_and_grads: ``jax.value_and_grad`` of the loss, beside a second evaluation of the loss kept
in a local for debugging and never returned: the output needs one forward pass.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def f(params, x, y):
    logits = x @ params["w"] + params["b"]
    picked = jnp.take_along_axis(logits, y[:, None], -1)[:, 0]
    return jnp.mean(jax.nn.logsumexp(logits, -1) - picked)


def loss_and_grads(params, x, y):
    loss, grads = jax.value_and_grad(f)(params, x, y)
    _debug = f(params, x, y)  # computed to compare while debugging, unused
    return {"loss": loss, "grads": grads}
