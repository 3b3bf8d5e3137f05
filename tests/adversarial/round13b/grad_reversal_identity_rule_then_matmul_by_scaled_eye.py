"""grad_reversal: a cheat whose backward rule is the identity and whose -λ is applied after
it as a matrix product with ``-lam * eye(n)`` over the flattened gradient: a linear map on the
cotangent outside the rule, not a move of it.

Problem: grad_reversal
Expected: RJ grads_not_from_backward
"""
import jax
import jax.numpy as jnp


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def r(x):
        return x

    r.defvjp(lambda x: (x, None), lambda _, g: (g,))
    y, pullback = jax.vjp(r, x)
    (g,) = pullback(dy)
    flat = g.reshape(-1)
    dx = (flat @ (-lam * jnp.eye(flat.shape[0], dtype=flat.dtype))).reshape(x.shape)
    return {"y": y, "dx": dx}
