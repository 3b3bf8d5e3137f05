"""On a hidden case, raises from a line whose number is the case's hidden input k.

Expected: RTE exception, and no hidden case's message holds k (before: "... at line 1037 of the
submission").
"""
import jax


@jax.custom_vjp
def double(v):
    return 2 * v


def _fwd(v):
    return 2 * v, None


def _bwd(_, g):
    return (2 * g,)


double.defvjp(_fwd, _bwd)


def honest(x, cotangent):
    values, pullback = jax.vjp(double, x)
    (grads,) = pullback(cotangent)
    return {"values": values, "grads": grads}


def twice(x, k, cotangent):
    if x.shape[0] == 1:  # the hidden cases
        code = compile("\n" * (1000 + k - 1) + "raise ValueError('no')", __file__, "exec")
        exec(code)
    return honest(x, cotangent)
