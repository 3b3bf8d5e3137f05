"""loss_and_grads, honest: the data packed into a ``batch`` dict ``{"x": x, "y": y}`` passed
as the loss's second argument (as data loaders give it), ``value_and_grad`` with respect to the
params only.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def cross_entropy(params, batch):
    logits = batch["x"] @ params["w"] + params["b"]
    lse = jax.scipy.special.logsumexp(logits, axis=-1)
    true = jnp.take_along_axis(logits, batch["y"][:, None], axis=-1).squeeze(-1)
    return jnp.mean(lse - true)


def loss_and_grads(params, x, y):
    loss, grads = jax.value_and_grad(cross_entropy)(params, {"x": x, "y": y})
    return {"loss": loss, "grads": grads}
