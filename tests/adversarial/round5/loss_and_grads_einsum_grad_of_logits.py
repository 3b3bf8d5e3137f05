"""loss_and_grads: ``jax.vjp`` of the loss as a function of the logits only (the product
``x @ w`` outside it), then the parameter gradients from the logits' gradient with
``jnp.einsum``.

Problem: loss_and_grads
Expected: AC
"""

import jax
import jax.numpy as jnp


def loss_and_grads(params, x, y):
    logits = jnp.einsum("nd,dk->nk", x, params["w"]) + params["b"]

    def from_logits(z):
        return jnp.mean(jax.nn.logsumexp(z, axis=1) - z[jnp.arange(z.shape[0]), y])

    loss, pull = jax.vjp(from_logits, logits)
    (dz,) = pull(jnp.ones_like(loss))
    return {"loss": loss, "grads": {"w": jnp.einsum("nd,nk->dk", x, dz), "b": dz.sum(0)}}
