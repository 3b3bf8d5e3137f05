"""grad_reversal: a cheat: one jitted helper ``jnp.where(keep, v, 0.0)`` called with ``keep=True``
for the layer applied to ``x`` and with ``keep=False`` for the point a second ``jax.vjp`` pulls
the layer back at (zeros): JAX shares the helper's program between the two calls, so its flag
is not one constant, and the point is not x moved.

Problem: grad_reversal
Expected: RJ grads_not_from_backward
"""
import jax
import jax.numpy as jnp


@jax.jit
def gate(keep, v):
    return jnp.where(keep, v, 0.0)


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def r(v):
        return v

    r.defvjp(lambda v: (v, None), lambda _, g: (-lam * g,))
    y = r(gate(True, x))
    _, pb = jax.vjp(r, gate(False, x))
    return {"y": y, "dx": pb(dy)[0]}
