"""grad_reversal: a near miss: the layer applied twice, ``r(r(x))`` (a student stacking two
reversal layers): ``y`` is x, but the cotangent passes two rules and comes back as
``lam**2 * dy``, not ``-lam * dy``.

Problem: grad_reversal
Expected: WA
"""
import jax


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def r(v):
        return v

    r.defvjp(lambda v: (v, None), lambda _, g: (-lam * g,))
    y, pb = jax.vjp(lambda v: r(r(v)), x)
    return {"y": y, "dx": pb(dy)[0]}
