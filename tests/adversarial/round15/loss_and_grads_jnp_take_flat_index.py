"""loss_and_grads, honest: the picked log-probabilities by ``jnp.take`` of the flattened
log-softmax at ``arange(n) * k + y`` (n and k as symbols), ``jax.value_and_grad``.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def loss_and_grads(params, x, y):
    def loss(p):
        logits = x @ p["w"] + p["b"]
        n, k = logits.shape
        logp = logits - jax.nn.logsumexp(logits, axis=1, keepdims=True)
        picked = jnp.take(logp.reshape(-1), jnp.arange(n) * k + y)
        return -picked.mean()

    value, grads = jax.value_and_grad(loss)(params)
    return {"loss": value, "grads": grads}
