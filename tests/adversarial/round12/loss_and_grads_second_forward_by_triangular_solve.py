"""loss_and_grads, cheat: the gradient by ``jax.grad``, and the loss from x @ w computed a
second time by a triangular solve, not a product: with L = [[I_d, 0], [-x, I_n]] (unit lower
triangular), L^-1 [[w], [0]] = [[w], [x @ w]]; ``triangular_solve`` is not among the
products the rule counts, and the (n + d) x (n + d) matrix is what is left to refuse.

Problem: loss_and_grads
Expected: RJ intermediate_too_large
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def _xent(logits, y):
    return jnp.mean(jax.nn.logsumexp(logits, axis=1) - jnp.take_along_axis(logits, y[:, None], 1)[:, 0])


def _f(params, x, y):
    return _xent(x @ params["w"] + params["b"], y)


def loss_and_grads(params, x, y):
    n, d = x.shape
    w = params["w"]
    top = jnp.concatenate([jnp.eye(d, dtype=x.dtype), jnp.zeros((d, n), x.dtype)], axis=1)
    bottom = jnp.concatenate([-x, jnp.eye(n, dtype=x.dtype)], axis=1)
    L = jnp.concatenate([top, bottom], axis=0)
    rhs = jnp.concatenate([w, jnp.zeros((n, w.shape[1]), x.dtype)], axis=0)
    z = lax.linalg.triangular_solve(L, rhs, left_side=True, lower=True, unit_diagonal=True)
    loss = _xent(lax.stop_gradient(z[d:]) + params["b"], y)
    return {"loss": loss, "grads": jax.grad(_f)(params, x, y)}
