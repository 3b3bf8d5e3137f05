"""grad_reversal: ``jax.grad`` of ``jnp.vdot(dy, r(v))`` with the objective inside a ``lax.cond``
whose predicate reads x (the same objective in both branches, one jitted): the cotangent is
handed from the forward branches to the backward ones unchanged (or flattened alike), multiplied
there by the seed one, and passes the rule.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def r(v):
        return v

    r.defvjp(lambda v: (v, None), lambda _, g: (-lam * g,))
    objective = lambda v: jnp.vdot(dy, r(v))
    dx = jax.grad(lambda v: lax.cond(jnp.sum(v) > 0, objective, jax.jit(objective), v))(x)
    return {"y": r(x), "dx": dx}
