"""loss_and_grads: the gradient in closed form, (softmax - one_hot) / n from the logits
computed once, ``jax.nn.one_hot(y, k)`` with k read from w's shape, ``jnp.einsum`` for x^T
times it; the loss from ``log_softmax``.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def loss_and_grads(params, x, y):
    n = x.shape[0]
    k = params["w"].shape[-1]
    logits = x @ params["w"] + params["b"]
    logp = jax.nn.log_softmax(logits, axis=-1)
    oh = jax.nn.one_hot(y, k, dtype=logits.dtype)
    loss = -jnp.sum(oh * logp) / n
    dlogits = (jnp.exp(logp) - oh) / n
    grads = {"w": jnp.einsum("nd,nk->dk", x, dlogits), "b": jnp.sum(dlogits, axis=0)}
    return {"loss": loss, "grads": grads}
