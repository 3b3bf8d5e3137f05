"""grad_reversal: ``jax.linear_transpose`` of the map v -> -λ v applied to dy, beside a
custom_vjp layer for y. The statement rejects linear_transpose.

Problem: grad_reversal
Expected: RJ
Cases: all
"""
import jax


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def r(v):
        return v

    r.defvjp(lambda v: (v, None), lambda _, g: (-lam * g,))
    transpose = jax.linear_transpose(lambda v: -lam * v, x)
    return {"y": r(x), "dx": transpose(dy)[0]}
