"""loss_and_grads, honest: ``jax.grad(has_aux=True)`` returning the logits as the auxiliary
output, and the reported loss computed again from those logits (a log-softmax and a pick, no
second product with w): one forward pass, the loss's arithmetic done twice.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _nll(logits, y):
    logp = jax.nn.log_softmax(logits, axis=-1)
    return -jnp.mean(jnp.take_along_axis(logp, y[:, None], axis=-1))


def loss_and_grads(params, x, y):
    def loss(p):
        logits = x @ p["w"] + p["b"]
        return _nll(logits, y), logits

    grads, logits = jax.grad(loss, has_aux=True)(params)
    return {"loss": _nll(logits, y), "grads": grads}
