"""loss_and_grads, honest: ``jax.grad(f, argnums=(0, 1), has_aux=True)`` over w and b passed
separately, the auxiliary output being the loss itself (stopped), so one pass gives both.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def _loss(w, b, x, y):
    logits = x @ w + b
    nll = jax.nn.logsumexp(logits, axis=-1) - logits[jnp.arange(y.shape[0]), y]
    loss = nll.mean()
    return loss, jax.lax.stop_gradient(loss)


def loss_and_grads(params, x, y):
    (gw, gb), loss = jax.grad(_loss, argnums=(0, 1), has_aux=True)(params["w"], params["b"], x, y)
    return {"loss": loss, "grads": {"w": gw, "b": gb}}
