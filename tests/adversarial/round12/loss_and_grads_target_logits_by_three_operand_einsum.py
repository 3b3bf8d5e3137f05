"""loss_and_grads, cheat: the gradient by ``jax.grad``; the loss from a log-sum-exp of the
logits that pass kept as an auxiliary output, less the target logits taken a second time
by ``jnp.einsum('nd,dk,nk->n', x, w, one_hot)``, in the hope that a product with a one-hot is
not counted: the contraction multiplies x and w all the same.

Problem: loss_and_grads
Expected: RJ repeated_computation
Cases: all
"""
import jax
import jax.numpy as jnp


def _f(params, x, y):
    logits = x @ params["w"] + params["b"]
    picked = jnp.take_along_axis(logits, y[:, None], 1)[:, 0]
    return jnp.mean(jax.nn.logsumexp(logits, axis=1) - picked), logits


def loss_and_grads(params, x, y):
    grads, logits = jax.grad(_f, has_aux=True)(params, x, y)
    oh = jax.nn.one_hot(y, params["w"].shape[1], dtype=x.dtype)
    target = jnp.einsum("nd,dk,nk->n", x, params["w"], oh) + oh @ params["b"]
    loss = jnp.mean(jax.nn.logsumexp(logits, axis=1) - target)
    return {"loss": loss, "grads": grads}
