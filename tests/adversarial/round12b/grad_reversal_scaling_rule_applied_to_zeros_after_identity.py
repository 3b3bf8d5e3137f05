"""grad_reversal: two rules in a chain: an identity rule applied to x, whose backward passes
the cotangent, and a rule scaling by -λ applied to ``zeros_like(x)`` (an identity's pullback
does not depend on its point); dy is pulled back through the second, then the first. The
transformation is in a rule, but of a function not applied to x.

Problem: grad_reversal
Expected: RJ
Cases: all
"""
import jax
import jax.numpy as jnp


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def ident(v):
        return v

    ident.defvjp(lambda v: (v, None), lambda _, g: (g,))

    @jax.custom_vjp
    def flip(v):
        return v

    flip.defvjp(lambda v: (v, None), lambda _, g: (-lam * g,))

    y, back_ident = jax.vjp(ident, x)
    _, back_flip = jax.vjp(flip, jnp.zeros_like(x))
    return {"y": y, "dx": back_ident(back_flip(dy)[0])[0]}
