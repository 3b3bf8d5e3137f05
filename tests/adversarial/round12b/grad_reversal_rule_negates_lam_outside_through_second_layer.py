"""grad_reversal: two ``custom_vjp`` layers composed, the inner returning the cotangent
unchanged, the outer scaling it by λ; the sign applied to ``dy`` before the pullback. The sign
belongs in a backward rule, so a negation of the cotangent outside every rule is refused.

Problem: grad_reversal
Expected: RJ
Cases: all
"""
import jax


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def ident(v):
        return v

    ident.defvjp(lambda v: (v, None), lambda _, g: (g,))

    @jax.custom_vjp
    def scale(v):
        return v

    scale.defvjp(lambda v: (v, None), lambda _, g: (lam * g,))

    y, back = jax.vjp(lambda v: scale(ident(v)), x)
    return {"y": y, "dx": back(-dy)[0]}
