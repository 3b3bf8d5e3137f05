"""loss_and_grads, honest: each example's loss as ``logsumexp(logits) - logsumexp(logits,
b=one_hot)``: the second, with the one-hot as the weights of the sum, is the picked logit
itself (JAX leaves the zero-weight terms out of its maximum).

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def loss_and_grads(params, x, y):
    hot = jax.nn.one_hot(y, params["b"].shape[-1])

    def loss(p):
        logits = x @ p["w"] + p["b"]
        return jnp.mean(jax.nn.logsumexp(logits, axis=-1) - jax.nn.logsumexp(logits, axis=-1, b=hot))

    value, grads = jax.value_and_grad(loss)(params)
    return {"loss": value, "grads": grads}
