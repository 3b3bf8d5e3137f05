"""loss_and_grads: the mean written as a sum over ``len(y)``, ``jax.value_and_grad``. Python's
``len`` must return an int, and y's length is the symbol n while the rules trace, so JAX
itself cannot trace this; the judge says so and names ``y.shape[0]`` (the statement's "never
a number" covers it, though its list of loops, branches and indices does not name ``len``).

Problem: loss_and_grads
Expected: RJ dim_read_as_number
Cases: all
"""
import jax
import jax.numpy as jnp


def loss_fn(params, x, y):
    logits = x @ params["w"] + params["b"]
    logp = jax.nn.log_softmax(logits)
    return -jnp.sum(jnp.take_along_axis(logp, y[:, None], axis=1)) / len(y)


def loss_and_grads(params, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    return {"loss": loss, "grads": grads}
