"""grad_reversal: ``dx`` by ``jax.vjp`` through the custom_vjp layer, ``y`` returned as x itself
(the layer is the identity forward, so ``"y": x``), the pullback's primal output dropped.

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
    _, pullback = jax.vjp(r, x)
    return {"y": x, "dx": pullback(dy)[0]}
