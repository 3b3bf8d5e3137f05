"""loss_and_grads: the loss written over ``w`` and ``b`` as separate arguments, differentiated
by ``jax.value_and_grad(..., argnums=(0, 1))`` and the two gradients put back in a dict; the
labels' logits picked by ``jnp.take_along_axis`` of the stable log-softmax written as
``logits - max - log(sum(exp(logits - max)))``.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _loss(w, b, x, y):
    logits = x @ w + b
    top = jnp.max(logits, axis=1, keepdims=True)
    shifted = logits - jax.lax.stop_gradient(top)
    log_probs = shifted - jnp.log(jnp.sum(jnp.exp(shifted), axis=1, keepdims=True))
    return -jnp.mean(jnp.take_along_axis(log_probs, y[:, None], axis=1))


def loss_and_grads(params, x, y):
    loss, (gw, gb) = jax.value_and_grad(_loss, argnums=(0, 1))(params["w"], params["b"], x, y)
    return {"loss": loss, "grads": {"w": gw, "b": gb}}
