"""loss_and_grads, honest: ``jax.nn.one_hot(y, k, dtype=jnp.float32)`` times the log-softmax,
summed and divided by ``x.shape[0]``, the gradient by ``jax.grad(..., has_aux=True)`` with the
loss as the auxiliary value.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def loss_and_grads(params, x, y):
    k = params["b"].shape[0]
    target = jax.nn.one_hot(y, k, dtype=jnp.float32)

    def loss(p):
        logp = jax.nn.log_softmax(x @ p["w"] + p["b"])
        value = -jnp.sum(target * logp) / x.shape[0]
        return value, value

    grads, value = jax.grad(loss, has_aux=True)(params)
    return {"loss": value, "grads": grads}
