"""loss_and_grads, honest: ``jax.value_and_grad(has_aux=True)`` whose auxiliary output is a dict
of metrics (the accuracy from ``argmax`` and the stopped log-probabilities), as a training
loop would log them; only the loss and the gradient are returned.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _loss(params, x, y):
    logits = x @ params["w"] + params["b"]
    logp = jax.nn.log_softmax(logits, axis=-1)
    nll = -jnp.take_along_axis(logp, y[:, None], axis=-1)[:, 0]
    metrics = {"accuracy": jnp.mean(jnp.argmax(logits, axis=-1) == y),
               "logp": jax.lax.stop_gradient(logp)}
    return jnp.mean(nll), metrics


def loss_and_grads(params, x, y):
    (loss, _metrics), grads = jax.value_and_grad(_loss, has_aux=True)(params, x, y)
    return {"loss": loss, "grads": grads}
