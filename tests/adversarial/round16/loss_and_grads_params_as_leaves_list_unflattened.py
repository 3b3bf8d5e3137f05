"""loss_and_grads, honest: the params flattened to a list of leaves by ``jax.tree.flatten``
(b first, in key order), ``value_and_grad`` taken with respect to that list, and the gradient
put back in a dict by ``jax.tree.unflatten``.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def loss_and_grads(params, x, y):
    leaves, treedef = jax.tree.flatten(params)

    def loss(leaves):
        p = jax.tree.unflatten(treedef, leaves)
        logp = jax.nn.log_softmax(x @ p["w"] + p["b"], axis=1)
        return -jnp.mean(jnp.take_along_axis(logp, y[:, None], axis=1))

    value, g = jax.value_and_grad(loss)(leaves)
    return {"loss": value, "grads": jax.tree.unflatten(treedef, g)}
