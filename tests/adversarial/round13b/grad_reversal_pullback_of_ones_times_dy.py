"""grad_reversal: a cheat that pulls back a cotangent of ones through an honest rule (getting
``-lam`` everywhere) and multiplies it by ``dy`` outside: the cotangent ``dy`` reaches ``dx`` by
a product outside every backward rule.

Problem: grad_reversal
Expected: RJ grads_not_from_backward
"""
import jax
import jax.numpy as jnp


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def r(x):
        return x

    r.defvjp(lambda x: (x, None), lambda _, g: (-lam * g,))
    y, pullback = jax.vjp(r, x)
    (unit,) = pullback(jnp.ones_like(dy))
    return {"y": y, "dx": unit * dy}
