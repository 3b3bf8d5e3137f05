"""grad_reversal: the honest layer differentiated at the point x * 0 (a value computed from x, but
not x: the pullback of an identity does not depend on the point), y being x itself. dx is the
rule's output; whether r was applied to x is what the statement asks.

Problem: grad_reversal
Expected: RJ grads_not_from_backward
"""
import jax


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def r(a):
        return a

    r.defvjp(lambda a: (a, None), lambda _, g: (-lam * g,))
    _, pull = jax.vjp(r, x * 0.0)
    return {"y": x, "dx": pull(dy)[0]}
