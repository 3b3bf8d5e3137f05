"""loss_and_grads: ``jax.grad(..., has_aux=True)``, the auxiliary output a dict holding the
loss and the logits (the logits not used after), a one-hot from ``y[:, None] ==
jnp.arange(k)``, the mean written as a sum divided by ``y.shape[0]``.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def objective(params, x, y):
    logits = jnp.matmul(x, params["w"]) + params["b"][None, :]
    k = logits.shape[1]
    onehot = (y[:, None] == jnp.arange(k)[None, :]).astype(logits.dtype)
    logp = jax.nn.log_softmax(logits)
    loss = -jnp.sum(onehot * logp) / y.shape[0]
    return loss, {"loss": loss, "logits": logits}


def loss_and_grads(params, x, y):
    grads, aux = jax.grad(objective, has_aux=True)(params, x, y)
    return {"loss": aux["loss"], "grads": grads}
