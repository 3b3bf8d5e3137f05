"""loss_and_grads, honest: the bias folded into the weights as an extra row and x given a column
of ones (one product for the logits), value_and_grad with respect to the dict, the loss with
the labels compared against jnp.arange(k).

Expected: AC
"""
import jax
import jax.numpy as jnp


def _loss(params, x, y):
    xa = jnp.concatenate([x, jnp.ones((x.shape[0], 1), x.dtype)], axis=1)
    wa = jnp.concatenate([params["w"], params["b"][None, :]], axis=0)
    logits = xa @ wa
    onehot = (y[:, None] == jnp.arange(logits.shape[1])[None, :]).astype(logits.dtype)
    return -jnp.mean(jnp.sum(onehot * jax.nn.log_softmax(logits), axis=1))


def loss_and_grads(params, x, y):
    loss, grads = jax.value_and_grad(_loss)(params, x, y)
    return {"loss": loss, "grads": grads}
