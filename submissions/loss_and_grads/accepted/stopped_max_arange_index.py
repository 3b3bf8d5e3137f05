"""loss_and_grads, honest: value_and_grad of a cross-entropy written with the max subtracted
(its gradient stopped, as it cancels), the target logits picked by logits[jnp.arange(n), y].

Expected: AC
"""
import jax
import jax.numpy as jnp


def _loss(params, x, y):
    logits = jnp.einsum("nd,dk->nk", x, params["w"]) + params["b"]
    shifted = logits - jax.lax.stop_gradient(jnp.max(logits, axis=1, keepdims=True))
    lse = jnp.log(jnp.sum(jnp.exp(shifted), axis=1))
    picked = shifted[jnp.arange(x.shape[0]), y]
    return jnp.mean(lse - picked)


def loss_and_grads(params, x, y):
    loss, grads = jax.value_and_grad(_loss)(params, x, y)
    return {"loss": loss, "grads": grads}
