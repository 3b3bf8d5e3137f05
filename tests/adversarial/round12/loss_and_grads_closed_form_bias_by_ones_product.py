"""loss_and_grads: the closed form with the bias gradient as ``jnp.ones(n) @ delta`` (a
product with a constant, not counted against the one forward pass) and the weight gradient
as ``jnp.matmul(x.T, delta)``; the loss by ``jax.nn.log_softmax`` and a one-hot from
``jnp.eye(k)[y]``.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def loss_and_grads(params, x, y):
    n = x.shape[0]
    logits = jnp.matmul(x, params["w"]) + params["b"]
    onehot = jnp.eye(logits.shape[1], dtype=logits.dtype)[y]
    logp = jax.nn.log_softmax(logits)
    loss = -(onehot * logp).sum() / n
    delta = (jax.nn.softmax(logits) - onehot) / n
    return {"loss": loss,
            "grads": {"w": jnp.matmul(x.T, delta), "b": jnp.ones((n,), delta.dtype) @ delta}}
