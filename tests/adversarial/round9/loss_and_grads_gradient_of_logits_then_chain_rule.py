"""loss_and_grads: the logits computed once with ``jax.lax.dot_general``, then ``jax.grad``
taken with respect to the logits only (``has_aux`` giving the loss back), and the parameters'
gradients by the chain rule by hand: x^T dlogits and the column sums.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def loss_and_grads(params, x, y):
    logits = lax.dot_general(x, params["w"], (((1,), (0,)), ((), ()))) + params["b"]

    def from_logits(z):
        lse = jax.nn.logsumexp(z, axis=1)
        target = jnp.sum(jnp.where(jnp.arange(z.shape[1]) == y[:, None], z, 0.0), axis=1)
        loss = jnp.mean(lse - target)
        return loss, loss

    dlogits, loss = jax.grad(from_logits, has_aux=True)(logits)
    return {"loss": loss, "grads": {"w": x.T @ dlogits, "b": dlogits.sum(axis=0)}}
