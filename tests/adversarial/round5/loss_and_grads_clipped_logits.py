"""loss_and_grads: the logits clipped to [-80, 80] before a plain ``exp`` to avoid overflow:
the loss and the gradients are wrong wherever a logit is beyond the clip.

Problem: loss_and_grads
Expected: WA
"""

import jax
import jax.numpy as jnp


def loss_fn(params, x, y):
    z = jnp.clip(x @ params["w"] + params["b"], -80.0, 80.0)
    logp = z - jnp.log(jnp.sum(jnp.exp(z), axis=-1, keepdims=True))
    return -jnp.mean(jnp.take_along_axis(logp, y[:, None], axis=-1))


def loss_and_grads(params, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    return {"loss": loss, "grads": grads}
