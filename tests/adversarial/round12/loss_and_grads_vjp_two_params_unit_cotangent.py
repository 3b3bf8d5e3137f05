"""loss_and_grads: ``jax.vjp`` of a function of ``(w, b)`` closed over the batch, pulled back
with ``jnp.ones_like(loss)``; ``jax.nn.logsumexp`` less the picked logit.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def loss_and_grads(params, x, y):
    def f(w, b):
        logits = jnp.dot(x, w) + b
        picked = jnp.take_along_axis(logits, jnp.expand_dims(y, -1), axis=-1).squeeze(-1)
        return jnp.mean(jax.nn.logsumexp(logits, axis=-1) - picked)

    loss, pullback = jax.vjp(f, params["w"], params["b"])
    gw, gb = pullback(jnp.ones_like(loss))
    return {"loss": loss, "grads": {"w": gw, "b": gb}}
