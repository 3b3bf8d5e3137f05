"""grad_reversal: a module as a student hands it in: type annotations, docstrings, a ``print``
of the shapes at trace time, no residual, and an
``if __name__ == "__main__"`` block that tries the layer.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def make_reversal(lam: float):
    """Identity forward; backward multiplies the incoming gradient by -lam."""

    @jax.custom_vjp
    def reversal(x: jax.Array) -> jax.Array:
        return x

    def reversal_fwd(x: jax.Array):
        return x, None

    def reversal_bwd(_, g: jax.Array):
        return (-lam * g,)

    reversal.defvjp(reversal_fwd, reversal_bwd)
    return reversal


def grad_reverse(x: jax.Array, lam: float, dy: jax.Array) -> dict:
    print(f"grad_reverse: x {x.shape} {x.dtype}, lam={lam}")
    r = make_reversal(lam)
    y, pullback = jax.vjp(r, x)
    (dx,) = pullback(dy)
    return {"y": y, "dx": dx}


if __name__ == "__main__":
    out = grad_reverse(jnp.arange(3.0), 0.5, jnp.ones(3))
    print(out["y"], out["dx"])
