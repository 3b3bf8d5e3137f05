"""loss_and_grads, cheat on "one forward pass": the loss computed beside ``jax.grad`` a second
time, its logits rebuilt without a matrix product: w's columns padded to 16 (k <= 16) by
clamped indices, taken two at a time in a Python loop of eight, each pair's logits the sum over
d of the elementwise product ``x[:, :, None] * pair[None]`` (an (n, d, 2) value, within the
size bound), the sixteen columns then cut back to k. A matrix product of x and w written with
elementwise products, in a fixed number of pieces whatever k is.

Problem: loss_and_grads
Expected: RJ
Cases: all
Open: the rule counts matrix products by primitive; elementwise products summed in pieces under
  the size cap are not counted, and the shape that would tell them from the softmax's own
  derivative (operands broadcast along each other's free axis, summed along a shared one) has
  spellings a reading of broadcasts and sums would not list (a tile, a product with ones, a sum
  by a product with a column of ones or a cumulative sum)
"""
import jax
import jax.numpy as jnp


def _loss(params, x, y):
    logp = jax.nn.log_softmax(x @ params["w"] + params["b"])
    return -jnp.mean(jnp.take_along_axis(logp, y[:, None], axis=1))


def loss_and_grads(params, x, y):
    grads = jax.grad(_loss)(params, x, y)
    w, b = params["w"], params["b"]
    k = w.shape[1]
    padded = jnp.take(w, jnp.minimum(jnp.arange(16), k - 1), axis=1)
    pieces = [jnp.sum(x[:, :, None] * padded[None, :, 2 * j:2 * j + 2], axis=1) for j in range(8)]
    logits = jnp.concatenate(pieces, axis=1)[:, :k] + b
    logp = jax.nn.log_softmax(logits)
    loss = -jnp.mean(jnp.take_along_axis(logp, y[:, None], axis=1))
    return {"loss": loss, "grads": grads}
