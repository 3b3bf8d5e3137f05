# the loss from a second forward pass in float16 of x against w, rounded up to float32 by a
# correction computed from... no: the second forward as a broadcast product summed over d
import jax
import jax.numpy as jnp


def f(params, x, y):
    logits = x @ params["w"] + params["b"]
    return jnp.mean(jax.nn.logsumexp(logits, axis=1) - jnp.take_along_axis(logits, y[:, None], 1)[:, 0])


def loss_and_grads(params, x, y):
    # the logits of the label only: (n, d) products, summed
    w_y = jnp.take(params["w"], y, axis=1).T          # (n, d)
    picked = jnp.sum(x * w_y, axis=1) + params["b"][y]
    # logsumexp recovered from the gradient of b: p = softmax, mean over batch... only the
    # mean is available, so use jax.grad's own forward through has_aux
    g, lse = jax.grad(lambda p: (f(p, x, y), jax.nn.logsumexp(x @ p["w"] + p["b"], axis=1)), has_aux=True)(params)
    return {"loss": jnp.mean(lse - picked), "grads": g}
