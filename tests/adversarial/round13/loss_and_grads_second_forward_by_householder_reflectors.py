"""loss_and_grads, cheat: the gradient by ``jax.grad`` (two products) and the loss from x @ w
computed a second time by ``lax.linalg.ormqr``, which applies Householder reflectors
H_j = I - tau v_j v_j^T to a matrix: with v_j = e_j + [0; w_j] (w's column j below k zeros),
a tiny tau and C = [0; x^T], the top k rows of H_1 ... H_k C are -tau (x @ w)^T up to terms in
tau^2. Every value is at most (k + d) x max(k, n), within the size cap; the product is under
a name the product count did not list.

Problem: loss_and_grads
Expected: RJ repeated_computation
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax

TAU = 2.0 ** -40


def _xent(logits, y):
    return jnp.mean(jax.nn.logsumexp(logits, axis=1) - jnp.take_along_axis(logits, y[:, None], 1)[:, 0])


def _f(params, x, y):
    return _xent(x @ params["w"] + params["b"], y)


def loss_and_grads(params, x, y):
    w, xs = lax.stop_gradient(params["w"]), lax.stop_gradient(x)
    k = w.shape[1]
    a = jnp.concatenate([jnp.zeros((k, k), w.dtype), w], axis=0)
    c = jnp.concatenate([jnp.zeros((k, xs.shape[0]), xs.dtype), xs.T], axis=0)
    out = lax.linalg.ormqr(a, jnp.full((k,), TAU, w.dtype), c, left=True, transpose=False)
    logits = -out[:k].T / TAU
    return {"loss": _xent(logits + params["b"], y), "grads": jax.grad(_f)(params, x, y)}
