"""loss_and_grads, cheat on "one forward pass": a ``jax.custom_vjp`` cross-entropy of (w, b)
whose forward rule saves only w and b, and whose backward rule computes the logits x @ w + b
again (a second forward pass) before the gradient.

Problem: loss_and_grads
Expected: RJ repeated_computation
Cases: all
"""
import jax
import jax.numpy as jnp


def loss_and_grads(params, x, y):
    n = x.shape[0]

    def nll(logits):
        return jnp.mean(jax.nn.logsumexp(logits, axis=1)
                        - jnp.take_along_axis(logits, y[:, None], axis=1)[:, 0])

    @jax.custom_vjp
    def xent(w, b):
        return nll(x @ w + b)

    def fwd(w, b):
        return xent(w, b), (w, b)

    def bwd(res, g):
        w, b = res
        logits = x @ w + b
        delta = g * (jax.nn.softmax(logits) - jax.nn.one_hot(y, logits.shape[1])) / n
        return x.T @ delta, delta.sum(0)

    xent.defvjp(fwd, bwd)
    loss, (gw, gb) = jax.value_and_grad(xent, argnums=(0, 1))(params["w"], params["b"])
    return {"loss": loss, "grads": {"w": gw, "b": gb}}
