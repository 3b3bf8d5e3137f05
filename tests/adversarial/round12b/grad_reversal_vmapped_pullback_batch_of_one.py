"""grad_reversal: the pullback from ``jax.vjp`` applied under ``jax.vmap`` to a batch of one
cotangent (``dy[None]``), the batch axis dropped after.

Problem: grad_reversal
Expected: AC
Cases: all
"""
import jax


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def r(v):
        return v

    r.defvjp(lambda v: (v, None), lambda _, g: (-lam * g,))
    y, back = jax.vjp(r, x)
    (dx,) = jax.vmap(back)(dy[None])
    return {"y": y, "dx": dx[0]}
