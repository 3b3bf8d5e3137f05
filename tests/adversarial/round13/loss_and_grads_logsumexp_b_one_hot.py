"""loss_and_grads: -log softmax(l)_y written as ``logsumexp(l) - logsumexp(l, b=one_hot)`` (the
second is the label's logit, the one-hot weighting the sum), the one-hot by ``jax.nn.one_hot``
with ``num_classes`` from the logits' shape; ``jax.value_and_grad``.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _loss(params, x, y):
    logits = x @ params["w"] + params["b"]
    hot = jax.nn.one_hot(y, logits.shape[-1], dtype=logits.dtype)
    nll = jax.nn.logsumexp(logits, axis=-1) - jax.nn.logsumexp(logits, axis=-1, b=hot)
    return jnp.mean(nll)


def loss_and_grads(params, x, y):
    loss, grads = jax.value_and_grad(_loss)(params, x, y)
    return {"loss": loss, "grads": grads}
