"""Two custom_vjp functions in series: one reverses the gradient, the other scales it by lam.
The cotangent passes through both backward rules on its way to dx.

Expected verdict: accepted.
"""
import jax


@jax.custom_vjp
def negate_grad(v):
    return v


negate_grad.defvjp(lambda v: (v, None), lambda _, g: (-g,))


def grad_reverse(x, lam, dy):
    @jax.custom_vjp
    def scale_grad(v):
        return v

    scale_grad.defvjp(lambda v: (v, None), lambda _, g: (lam * g,))

    y, pullback = jax.vjp(lambda v: negate_grad(scale_grad(v)), x)
    return {"y": y, "dx": pullback(dy)[0]}
