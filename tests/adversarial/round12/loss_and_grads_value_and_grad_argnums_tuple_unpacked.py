"""loss_and_grads: params unpacked into ``w, b`` and differentiated by
``jax.value_and_grad(..., argnums=(0, 1))``, the dict rebuilt; ``log_softmax`` with
``take_along_axis(..., y[:, None], axis=1)``.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def xent(w, b, x, y):
    logits = x.dot(w) + b
    logp = jax.nn.log_softmax(logits, axis=-1)
    nll = -jnp.take_along_axis(logp, y[:, None], axis=1)[:, 0]
    return nll.mean()


def loss_and_grads(params, x, y):
    loss, (gw, gb) = jax.value_and_grad(xent, argnums=(0, 1))(params["w"], params["b"], x, y)
    return {"loss": loss, "grads": {"w": gw, "b": gb}}
