"""loss_and_grads, wrong: the gradient of the summed loss, the loss a mean: the gradient is n
times too large.

Expected: WA wrong_value
"""
import jax
import jax.numpy as jnp


def loss_and_grads(params, x, y):
    def total(p):
        logp = jax.nn.log_softmax(x @ p["w"] + p["b"])
        return -jnp.sum(jnp.take_along_axis(logp, y[:, None], axis=1))

    value, grads = jax.value_and_grad(total)(params)
    return {"loss": value / x.shape[0], "grads": grads}
