"""loss_and_grads: the dict turned into a ``chex``-like dataclass registered with
``jax.tree_util.register_dataclass`` for the computation, ``jax.vjp`` with ``has_aux`` (the loss
as its auxiliary value) pulled back with a cotangent of one, and the dataclass turned back into
the dict the statement asks for.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import dataclasses

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class Linear:
    w: jax.Array
    b: jax.Array

    def __call__(self, x):
        return x @ self.w + self.b


def loss_and_grads(params, x, y):
    model = Linear(params["w"], params["b"])

    def loss_fn(m):
        logits = m(x)
        shifted = logits - jax.lax.stop_gradient(jnp.max(logits, axis=1, keepdims=True))
        nll = jnp.log(jnp.sum(jnp.exp(shifted), axis=1)) - jnp.take_along_axis(shifted, y[:, None], 1)[:, 0]
        loss = jnp.mean(nll)
        return loss, loss

    _, pullback, loss = jax.vjp(loss_fn, model, has_aux=True)
    (g,) = pullback(jnp.ones((), jnp.float32))
    return {"loss": loss, "grads": {"w": g.w, "b": g.b}}
