"""loss_and_grads, honest: ``jax.vjp(loss, params, has_aux=True)`` with the logits as the
auxiliary output, the loss from ``jax.nn.log_softmax`` and a one-hot made by ``jnp.eye(k)[y]``,
the pullback called at ``jnp.ones(())``.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def loss_and_grads(params, x, y):
    hot = jnp.eye(params["b"].shape[0], dtype=x.dtype)[y]

    def loss(p):
        logits = x @ p["w"] + p["b"]
        return -jnp.sum(hot * jax.nn.log_softmax(logits)) / x.shape[0], logits

    value, pull, _logits = jax.vjp(loss, params, has_aux=True)
    (grads,) = pull(jnp.ones((), value.dtype))
    return {"loss": value, "grads": grads}
