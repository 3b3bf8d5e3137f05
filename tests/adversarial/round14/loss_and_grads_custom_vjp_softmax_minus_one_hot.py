"""loss_and_grads: the loss a ``jax.custom_vjp`` of (params, x, y): the forward rule keeps x, the
softmax and the one-hot; the backward rule gives w's gradient as x^T (p - onehot) / n and b's
as its column sums (``None`` for x and y); ``jax.value_and_grad`` over it.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _forward(params, x, y):
    logits = x @ params["w"] + params["b"]
    logp = jax.nn.log_softmax(logits, axis=-1)
    onehot = jax.nn.one_hot(y, logits.shape[-1], dtype=logits.dtype)
    return -jnp.mean(jnp.sum(onehot * logp, axis=-1)), (x, jnp.exp(logp), onehot)


@jax.custom_vjp
def _xent(params, x, y):
    return _forward(params, x, y)[0]


def _fwd(params, x, y):
    return _forward(params, x, y)


def _bwd(res, c):
    x, probs, onehot = res
    dz = (probs - onehot) * (c / x.shape[0])
    return {"w": x.T @ dz, "b": jnp.sum(dz, axis=0)}, None, None


_xent.defvjp(_fwd, _bwd)


def loss_and_grads(params, x, y):
    loss, grads = jax.value_and_grad(_xent)(params, x, y)
    return {"loss": loss, "grads": grads}
