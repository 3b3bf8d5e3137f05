"""grad_reversal: the custom_vjp layer defined properly, but ``dx`` computed by calling its
backward rule by hand on ``dy`` (``y`` from the layer). The statement rejects this.

Problem: grad_reversal
Expected: RJ
Cases: all
"""
import jax


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def r(v):
        return v

    def fwd(v):
        return v, None

    def bwd(res, g):
        return (-lam * g,)

    r.defvjp(fwd, bwd)
    return {"y": r(x), "dx": bwd(None, dy)[0]}
