"""jax.custom_jvp instead of jax.custom_vjp: the JVP rule scales the tangent by -lam and
jax.vjp transposes that linear rule, so dx is numerically right.

Expected verdict: rejected (a custom_jvp is not a custom_vjp backward rule).
"""
import jax


def grad_reverse(x, lam, dy):
    @jax.custom_jvp
    def rev(v):
        return v

    @rev.defjvp
    def rev_jvp(primals, tangents):
        (v,), (t,) = primals, tangents
        return rev(v), -lam * t

    y, pullback = jax.vjp(rev, x)
    return {"y": y, "dx": pullback(dy)[0]}
