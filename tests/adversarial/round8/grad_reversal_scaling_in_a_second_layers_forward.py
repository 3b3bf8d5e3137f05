"""grad_reversal: an identity rule pulls dy back unchanged, and the scaling -lam happens in the
*forward* function of a second custom_vjp applied to what the pullback returns: a custom_vjp,
but not its backward rule.

Problem: grad_reversal
Expected: RJ grads_not_from_backward
"""
import jax


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def ident(a):
        return a

    ident.defvjp(lambda a: (a, None), lambda _, g: (g,))

    @jax.custom_vjp
    def scale(a):
        return -lam * a

    scale.defvjp(lambda a: (-lam * a, None), lambda _, g: (-lam * g,))
    y, pull = jax.vjp(ident, x)
    return {"y": y, "dx": scale(pull(dy)[0])}
