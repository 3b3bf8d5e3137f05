"""loss_and_grads: a Python loop over the k classes, a dim named only in the tree's leaves
(params["b"] has k entries). The rules' program is traced with k a symbol, the tree's leaves
included, so the loop reads k as a number.

Expected: RJ dim_read_as_number
"""

import jax
import jax.numpy as jnp


def loss_and_grads(params, x, y):
    def loss(p):
        log_probs = jax.nn.log_softmax(x @ p["w"] + p["b"])
        picked = sum(jnp.where(y == c, log_probs[:, c], 0.0) for c in range(p["b"].shape[0]))
        return -jnp.mean(picked)

    value, grads = jax.value_and_grad(loss)(params)
    return {"loss": value, "grads": grads}
