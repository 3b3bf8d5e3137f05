"""loss_and_grads: logits by ``jnp.matmul(..., precision="highest")``, the picked log-probabilities
summed by ``jnp.einsum("nk,nk->", onehot, logp)`` (a contraction with the one-hot, not counted as
a product of two data values), ``jax.value_and_grad``.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _loss(params, x, y):
    logits = jnp.matmul(x, params["w"], precision="highest") + params["b"]
    logp = jax.nn.log_softmax(logits, axis=-1)
    onehot = jax.nn.one_hot(y, logits.shape[-1])
    return -jnp.einsum("nk,nk->", onehot, logp) / x.shape[0]


def loss_and_grads(params, x, y):
    loss, grads = jax.value_and_grad(_loss)(params, x, y)
    return {"loss": loss, "grads": grads}
