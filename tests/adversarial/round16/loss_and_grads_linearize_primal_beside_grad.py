"""loss_and_grads, cheat on "one forward pass": the loss taken from ``jax.linearize``'s primal
output (its linear function unused) and the gradient from a separate ``jax.grad``: two forward
passes.

Problem: loss_and_grads
Expected: RJ repeated_computation
Cases: all
"""
import jax
import jax.numpy as jnp


def _loss(params, x, y):
    logits = x @ params["w"] + params["b"]
    return jnp.mean(jax.nn.logsumexp(logits, axis=1) - jnp.take_along_axis(logits, y[:, None], 1)[:, 0])


def loss_and_grads(params, x, y):
    loss, _jvp = jax.linearize(lambda p: _loss(p, x, y), params)
    return {"loss": loss, "grads": jax.grad(_loss)(params, x, y)}
