"""grad_reversal: an honest rule, -lam * g, but the custom_vjp function is applied to
``jnp.zeros_like(x)`` (its pullback does not depend on the point), and y is x itself: dx is
the rule's output, yet r is never a function of x as the statement asks.

Problem: grad_reversal
Expected: RJ grads_not_from_backward
"""
import jax
import jax.numpy as jnp


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def r(a):
        return a

    r.defvjp(lambda a: (a, None), lambda _, g: (-lam * g,))
    _, pull = jax.vjp(r, jnp.zeros_like(x))
    return {"y": x, "dx": pull(dy)[0]}
