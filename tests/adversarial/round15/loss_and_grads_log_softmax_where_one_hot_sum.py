"""loss_and_grads, honest: ``jax.nn.log_softmax`` and the picked entries by ``jnp.where(y[:, None]
== jnp.arange(k), logp, 0).sum()``, the mean by dividing by ``y.shape[0]``, the gradient by
``jax.value_and_grad`` of a closure over x and y.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def loss_and_grads(params, x, y):
    k = params["b"].shape[0]

    def loss(p):
        logp = jax.nn.log_softmax(jnp.dot(x, p["w"]) + p["b"], axis=1)
        return -jnp.where(y[:, None] == jnp.arange(k)[None, :], logp, 0.0).sum() / y.shape[0]

    value, grads = jax.value_and_grad(loss)(params)
    return {"loss": value, "grads": grads}
