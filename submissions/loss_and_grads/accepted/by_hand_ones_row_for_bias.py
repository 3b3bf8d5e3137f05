"""loss_and_grads, honest: the gradient by hand, the bias's as jnp.ones(n) @ dlogits (a product
with a constant), the loss from logsumexp minus the labels' logits picked by a one-hot.

Expected: AC
"""
import jax
import jax.numpy as jnp


def loss_and_grads(params, x, y):
    logits = x @ params["w"] + params["b"]
    n = x.shape[0]
    onehot = jax.nn.one_hot(y, logits.shape[1], dtype=logits.dtype)
    lse = jax.nn.logsumexp(logits, axis=1)
    loss = jnp.mean(lse - jnp.sum(onehot * logits, axis=1))
    dlogits = (jnp.exp(logits - lse[:, None]) - onehot) / n
    return {"loss": loss,
            "grads": {"w": jnp.matmul(x.T, dlogits), "b": jnp.ones(n, logits.dtype) @ dlogits}}
