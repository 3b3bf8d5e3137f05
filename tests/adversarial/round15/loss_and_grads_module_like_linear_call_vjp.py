"""loss_and_grads, honest: a framework-free ``Linear`` class whose ``__call__(params, x)`` gives
the logits, the loss from ``optax``-free integer-label cross-entropy, the gradient by
``jax.vjp`` pulled back at ``1.0``.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


class Linear:
    def __call__(self, params, x):
        return jnp.matmul(x, params["w"]) + params["b"]


def softmax_cross_entropy_with_integer_labels(logits, labels):
    logz = jax.nn.logsumexp(logits, axis=-1)
    picked = jnp.take_along_axis(logits, labels[..., None], axis=-1)[..., 0]
    return logz - picked


def loss_and_grads(params, x, y):
    model = Linear()
    loss, pull = jax.vjp(lambda p: softmax_cross_entropy_with_integer_labels(model(p, x), y).mean(),
                         params)
    (grads,) = pull(jnp.ones_like(loss))
    return {"loss": loss, "grads": grads}
