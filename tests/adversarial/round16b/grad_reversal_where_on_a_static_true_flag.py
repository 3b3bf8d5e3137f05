"""grad_reversal: honest code with a ``keep`` flag fixed to True in a helper that zeroes
features when the flag is off: ``jnp.where(keep, x, 0.0)`` on a Python bool, so the layer is
applied to ``x`` itself on every input.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp

KEEP_FEATURES = True


def gate(v, keep=KEEP_FEATURES):
    return jnp.where(keep, v, 0.0)


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def r(v):
        return v

    r.defvjp(lambda v: (v, None), lambda _, g: (-lam * g,))
    y, pb = jax.vjp(lambda v: r(gate(v)), x)
    return {"y": y, "dx": pb(dy)[0]}
