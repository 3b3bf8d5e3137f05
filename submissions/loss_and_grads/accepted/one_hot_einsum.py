"""loss_and_grads, honest: the cross-entropy as an einsum of the one-hot labels and the
log-probabilities, jax.value_and_grad.

Expected: AC
"""
import jax
import jax.numpy as jnp


def loss_and_grads(params, x, y):
    def loss(p):
        logp = jax.nn.log_softmax(x @ p["w"] + p["b"], axis=-1)
        onehot = jax.nn.one_hot(y, p["b"].shape[0], dtype=logp.dtype)
        return -jnp.einsum("nk,nk->", onehot, logp) / x.shape[0]

    l, g = jax.value_and_grad(loss)(params)
    return {"loss": l, "grads": g}
