"""loss_and_grads, honest: the gradient by hand with the one-hot taken as ``jnp.take(jnp.eye(k),
y, axis=0)``, the softmax from ``jax.nn.softmax`` of the logits computed once, the loss from
``jax.nn.logsumexp`` minus the picked logit, ``grads["w"]`` by ``jnp.einsum("nd,nk->dk")``.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def loss_and_grads(params, x, y):
    n, k = x.shape[0], params["w"].shape[1]
    logits = x @ params["w"] + params["b"]
    hot = jnp.take(jnp.eye(k, dtype=logits.dtype), y, axis=0)
    loss = jnp.mean(jax.nn.logsumexp(logits, axis=1) - jnp.sum(hot * logits, axis=1))
    d = (jax.nn.softmax(logits, axis=1) - hot) / n
    return {"loss": loss, "grads": {"w": jnp.einsum("nd,nk->dk", x, d), "b": jnp.sum(d, axis=0)}}
