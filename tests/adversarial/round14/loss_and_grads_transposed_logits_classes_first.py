"""loss_and_grads: the logits computed transposed, classes first (``w.T @ x.T + b[:, None]``,
shape (k, n)), the log-softmax over axis 0, the picked entries by a one-hot of shape (k, n);
``jax.value_and_grad``.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _loss(params, x, y):
    logits_t = params["w"].T @ x.T + params["b"][:, None]
    logp_t = jax.nn.log_softmax(logits_t, axis=0)
    onehot_t = (jnp.arange(logits_t.shape[0])[:, None] == y[None, :]).astype(logp_t.dtype)
    return -jnp.sum(logp_t * onehot_t) / logits_t.shape[1]


def loss_and_grads(params, x, y):
    loss, grads = jax.value_and_grad(_loss)(params, x, y)
    return {"loss": loss, "grads": grads}
