"""loss_and_grads: a small ``Linear`` class with ``__call__`` (flax-like, params passed in),
the gradient by ``jax.jacrev(..., has_aux=True)`` of the scalar loss with the loss as the
auxiliary output.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


class Linear:
    def __call__(self, params, x):
        return x @ params["w"] + params["b"]


def loss_and_grads(params, x, y):
    model = Linear()

    def loss_fn(p):
        logits = model(p, x)
        logp = jax.nn.log_softmax(logits)
        loss = -jnp.mean(logp[jnp.arange(y.shape[0]), y])
        return loss, loss

    grads, loss = jax.jacrev(loss_fn, has_aux=True)(params)
    return {"loss": loss, "grads": grads}
