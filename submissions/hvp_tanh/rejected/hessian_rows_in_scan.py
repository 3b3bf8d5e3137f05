"""hvp(W, x, v) from the full Hessian, one row at a time in a lax.scan: row i is the gradient
of the i-th entry of the gradient, dotted with v. No value is larger than d, so a size bound
passes it, but it costs d gradients where the problem asks for about two: only a rule on the
program's form (no scan or while, no growth with d) tells it from an honest jvp of grad.

Expected: RJ forbidden_primitive (hvp_tanh forbids scan and while)
"""

import jax
import jax.numpy as jnp


def hvp(W, x, v):
    f = lambda y: jnp.sum(jnp.tanh(W @ y))  # noqa: E731
    grad = jax.grad(f)

    def row(_, i):
        return None, jnp.vdot(jax.grad(lambda y: grad(y)[i])(x), v)

    return jax.lax.scan(row, None, jnp.arange(x.shape[0]))[1]
