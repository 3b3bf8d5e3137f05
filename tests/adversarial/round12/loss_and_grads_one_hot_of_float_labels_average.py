"""loss_and_grads: ``jax.nn.one_hot`` given the labels as floats, the picked log-probability by
``jnp.einsum('nk,nk->n', ...)``, the mean by ``jnp.average``, the gradient by ``jax.vjp`` of
the whole params dict pulled back with ``1.0``.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def loss_and_grads(params, x, y):
    labels = jax.nn.one_hot(y.astype(jnp.float32), params["b"].shape[0])

    def f(p):
        logp = jax.nn.log_softmax(x @ p["w"] + p["b"], axis=-1)
        return jnp.average(-jnp.einsum("nk,nk->n", labels, logp))

    loss, pull = jax.vjp(f, params)
    (grads,) = pull(jnp.float32(1.0))
    return {"loss": loss, "grads": grads}
