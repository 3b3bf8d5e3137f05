"""grad_reversal: an honest custom_vjp layer is applied (its output is y), but the function
differentiated is a stop_gradient construction that only looks like it: the value of r(x)
plus -lam * (z - stop_gradient(z)), whose derivative is -lam without the rule.

Problem: grad_reversal
Expected: RJ backward_not_run
"""

import jax
import jax.numpy as jnp


@jax.custom_vjp
def r(x):
    return x


r.defvjp(lambda x: (x, None), lambda _, g: (-g,))


def grad_reverse(x, lam, dy):
    y = r(x)

    def twin(z):
        return jax.lax.stop_gradient(r(z)) - lam * (z - jax.lax.stop_gradient(z))

    _, pull = jax.vjp(twin, x)
    (dx,) = pull(dy)
    return {"y": y, "dx": dx}
