"""loss_and_grads, wrong answer: the student takes ``jnp.log(jax.nn.softmax(logits))`` (softmax
itself subtracts the maximum, so nothing overflows) with ``jax.value_and_grad``; but a class whose
logit is far below the largest gets probability 0 in float32, its log is -inf, and a case whose
label is such a class has an infinite loss where the statement's stable log-softmax is finite.

Problem: loss_and_grads
Expected: WA
Cases: all
"""
import jax
import jax.numpy as jnp


def _loss(params, x, y):
    logits = x @ params["w"] + params["b"]
    logp = jnp.log(jax.nn.softmax(logits, axis=-1))
    return -jnp.mean(jnp.take_along_axis(logp, y[:, None], axis=1))


def loss_and_grads(params, x, y):
    loss, grads = jax.value_and_grad(_loss)(params, x, y)
    return {"loss": loss, "grads": grads}
