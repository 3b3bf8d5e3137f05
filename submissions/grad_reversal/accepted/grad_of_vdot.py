"""jax.grad of the weighted sum jnp.vdot(r(x), dy), the statement's second way; the reversal
inside the custom_vjp rule."""
import jax
import jax.numpy as jnp


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def r(z):
        return z

    def fwd(z):
        return z, None

    def bwd(_, g):
        return (-lam * g,)

    r.defvjp(fwd, bwd)
    dx = jax.grad(lambda z: jnp.vdot(r(z), dy))(x)
    return {"y": r(x), "dx": dx}
