"""grad_reversal: the layer a ``jax.custom_jvp`` whose JVP scales the tangent by -λ, ``dx`` by
``jax.vjp`` (JAX transposes the linear rule). The statement rejects a custom_jvp.

Problem: grad_reversal
Expected: RJ
Cases: all
"""
import jax


def grad_reverse(x, lam, dy):
    @jax.custom_jvp
    def r(v):
        return v

    r.defjvps(lambda t, ans, v: -lam * t)
    y, back = jax.vjp(r, x)
    return {"y": y, "dx": back(dy)[0]}
