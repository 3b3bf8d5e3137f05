import functools

import jax
import jax.numpy as jnp


def xent(params, x, y):
    z = jnp.einsum("nd,dk->nk", x, params["w"]) + params["b"]
    z = z - jax.lax.stop_gradient(z.max(axis=-1, keepdims=True))
    per = jnp.log(jnp.exp(z).sum(-1)) - (jax.nn.one_hot(y, z.shape[-1]) * z).sum(-1)
    return per.mean()


def loss_and_grads(params, x, y):
    loss, pull = jax.vjp(functools.partial(xent, x=x, y=y), params)
    (grads,) = pull(jnp.ones_like(loss))
    return dict(loss=loss, grads=grads)
