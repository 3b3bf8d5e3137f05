"""loss_and_grads: optax-like hand-rolled ``softmax_cross_entropy_with_integer_labels``
(``jax.nn.log_softmax`` then ``jnp.take_along_axis``), a flax-style ``dense`` helper with
``jnp.einsum``, and ``jax.value_and_grad`` under ``jax.jit``.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def softmax_cross_entropy_with_integer_labels(logits, labels):
    log_probs = jax.nn.log_softmax(logits, axis=-1)
    return -jnp.take_along_axis(log_probs, labels[..., None], axis=-1)[..., 0]


def dense(params, x):
    return jnp.einsum("nd,dk->nk", x, params["w"]) + params["b"]


@jax.jit
def loss_and_grads(params, x, y):
    def loss_fn(p):
        return softmax_cross_entropy_with_integer_labels(dense(p, x), y).mean()

    loss, grads = jax.value_and_grad(loss_fn)(params)
    return {"loss": loss, "grads": grads}
