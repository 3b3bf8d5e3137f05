"""loss_and_grads: the log-sum-exp by hand with the row maximum behind
``jax.lax.stop_gradient`` (it cancels from the gradient anyway), the label's logit chosen with
``y[:, np.newaxis] == jnp.arange(k)[np.newaxis, :]``, grads cast with ``.astype``.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
import numpy as np


def loss_and_grads(params, x, y):
    k = params["b"].shape[0]

    def loss_fn(params):
        logits = jnp.dot(x, params["w"]) + params["b"]
        top = jax.lax.stop_gradient(logits.max(axis=1, keepdims=True))
        lse = top[:, 0] + jnp.log(jnp.exp(logits - top).sum(axis=1))
        picked = jnp.where(y[:, np.newaxis] == jnp.arange(k)[np.newaxis, :], logits, 0.0).sum(1)
        return (lse - picked).mean()

    loss, grads = jax.value_and_grad(loss_fn)(params)
    grads = jax.tree_util.tree_map(lambda g: g.astype(jnp.float32), grads)
    return {"loss": loss.astype(jnp.float32), "grads": grads}
