"""loss_and_grads twin: at concrete shapes, a Python loop over the k classes of the tree's
leaves (right values); with k a symbol, a program whose loss is the sum over the batch, not the
mean. k is named only in params' leaves, which are traced with their dims as symbols too: the
program run is the symbolic one, and its values are wrong.

Expected: WA
"""

import jax
import jax.numpy as jnp


def loss_and_grads(params, x, y):
    k = params["b"].shape[0]

    def loss(p):
        logits = x @ p["w"] + p["b"]
        log_probs = jax.nn.log_softmax(logits)
        if isinstance(k, int):
            picked = sum(jnp.where(y == c, log_probs[:, c], 0.0) for c in range(k))
            return -jnp.mean(picked)
        return -jnp.sum(jnp.take_along_axis(log_probs, y[:, None], axis=1))

    value, grads = jax.value_and_grad(loss)(params)
    return {"loss": value, "grads": grads}
