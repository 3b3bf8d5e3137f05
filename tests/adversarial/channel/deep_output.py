"""Returns its values nested 2000 lists deep.

Expected: WA wrong_type (before: IE worker_protocol, blaming the judge).
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
    deep = out["values"]
    for _ in range(2000):
        deep = [deep]
    return {"values": deep, "grads": out["grads"]}
