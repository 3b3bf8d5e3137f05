"""CHEAT hvp_tanh: try: int(x.shape[0]) -> Hessian rows in a Python loop (d gradients);
except (symbolic trace) -> honest jvp-of-grad.
Intended: RJ (no_unrolling / intermediate_too_large / dim_read_as_number).
Now: AC. Every case runs the program traced with symbolic dims, which takes the honest
branch; the branch for concrete extents never runs, so it is never graded either."""
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    def f(z):
        return jnp.sum(jnp.tanh(W @ z))
    g = jax.grad(f)
    try:
        d = int(x.shape[0])
    except Exception:
        return jax.jvp(g, (x,), (v,))[1]
    rows = [jax.grad(lambda z, i=i: g(z)[i])(x) for i in range(d)]
    return jnp.stack(rows) @ v
