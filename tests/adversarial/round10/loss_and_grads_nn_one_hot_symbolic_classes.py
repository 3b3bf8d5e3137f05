"""loss_and_grads: ``jax.nn.one_hot(y, k)`` with k read from ``params["b"].shape[0]`` (a symbol
when the judge traces), the optax-style ``-(labels * log_softmax).sum(-1).mean()``, and
``jax.grad(..., has_aux=True)`` handing back the loss as its aux beside the scaled
objective.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def loss_and_grads(params, x, y):
    labels = jax.nn.one_hot(y, params["b"].shape[0], dtype=x.dtype)

    def objective(p):
        logits = jnp.dot(x, p["w"]) + p["b"]
        loss = -(labels * jax.nn.log_softmax(logits)).sum(axis=-1).mean()
        return loss, loss

    grads, loss = jax.grad(objective, has_aux=True)(params)
    return {"loss": loss, "grads": grads}
