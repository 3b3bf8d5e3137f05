"""loss_and_grads: a plausible wrong answer in a hand-written gradient: grads["w"] computed as
``dlogits.T @ x``, shape (k, d), the transpose of the (d, k) the statement asks for (same
shape only where d = k, and then the wrong entries).

Problem: loss_and_grads
Expected: WA
"""
import jax
import jax.numpy as jnp


def loss_and_grads(params, x, y):
    logits = x @ params["w"] + params["b"]
    logp = jax.nn.log_softmax(logits)
    onehot = jax.nn.one_hot(y, logits.shape[1])
    loss = -jnp.mean(jnp.sum(onehot * logp, axis=1))
    dlogits = (jnp.exp(logp) - onehot) / x.shape[0]
    return {"loss": loss, "grads": {"w": dlogits.T @ x, "b": dlogits.sum(0)}}
