"""loss_and_grads, cheat: the gradient by ``jax.grad`` (x @ w and its gradient), and the loss
from x @ w computed a second time by an LU factorisation (``lax.linalg.lu``, stopped): in
[[c I, w], [x, 0], [0, c I]] with c = 1024 the first d pivots stay on the diagonal and leave
the Schur complement -x w / c in x's rows, whose multipliers against the last rows' pivots
are -x w / c^2: x @ w read off L, rows put back by the permutation (a scatter). ``lu`` has one
operand, so the rule that counts products of two data values does not see it; what refuses it
is the size rule: the block matrix has (n + k + d)(k + d) elements, past the cap where n is
small beside d + k (a k x k block of pivots is what keeps x w out of the factorisation).

Problem: loss_and_grads
Expected: RJ intermediate_too_large
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax

C = 1024.0


def _xent(logits, y):
    return jnp.mean(jax.nn.logsumexp(logits, axis=1) - jnp.take_along_axis(logits, y[:, None], 1)[:, 0])


def _f(params, x, y):
    return _xent(x @ params["w"] + params["b"], y)


def loss_and_grads(params, x, y):
    w, xs = lax.stop_gradient(params["w"]), lax.stop_gradient(x)
    d, k = w.shape
    top = jnp.concatenate([C * jnp.eye(d, dtype=w.dtype), w], axis=1)
    mid = jnp.concatenate([xs, jnp.zeros((xs.shape[0], k), w.dtype)], axis=1)
    low = jnp.concatenate([jnp.zeros((k, d), w.dtype), C * jnp.eye(k, dtype=w.dtype)], axis=1)
    lu, _, perm = lax.linalg.lu(jnp.concatenate([top, mid, low], axis=0))
    where = jnp.zeros_like(perm).at[perm].set(jnp.arange(perm.shape[0], dtype=perm.dtype))
    rows = where[d:d + xs.shape[0]]
    logits = -C * C * lu[rows][:, d:]
    loss = _xent(logits + params["b"], y)
    return {"loss": loss, "grads": jax.grad(_f)(params, x, y)}
