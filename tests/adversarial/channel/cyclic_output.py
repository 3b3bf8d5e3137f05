"""Returns a list that contains itself, many times over.

Expected: WA wrong_type (before: IE worker_protocol).
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
    out = honest(x, cotangent)
    loop = [out["values"]]
    loop.extend([loop] * 50)
    return {"values": loop, "grads": out["grads"]}
