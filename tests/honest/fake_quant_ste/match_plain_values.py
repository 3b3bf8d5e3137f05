"""Match statements on plain values: tuples, dicts, literals, int()/float() and a star capture."""
import jax
import jax.numpy as jnp


def bounds(spec):
    match spec:
        case {"qmin": int(lo), "qmax": int(hi), **rest} if not rest:
            return lo, hi
        case (lo, hi) | [lo, hi]:
            return lo, hi
        case _:
            raise ValueError(f"bad spec {spec!r}")


def rank_of(shape):
    match shape:
        case ():
            return 0
        case (int(),):
            return 1
        case (first, *others):
            return 1 + len(others) if first >= 0 else -1


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    lo, hi = bounds({"qmin": int(qmin), "qmax": int(qmax)})
    assert bounds((lo, hi)) == (lo, hi) and rank_of(x.shape) == x.ndim
    match scale:
        case float() | int():
            step = float(scale)
        case _:
            step = scale

    @jax.custom_vjp
    def quant(v):
        return step * jnp.clip(jnp.round(v / step), lo, hi)

    def fwd(v):
        return quant(v), v

    def bwd(v, g):
        u = v / step
        return (jnp.where((u >= lo) & (u <= hi), g, 0.0),)

    quant.defvjp(fwd, bwd)
    values, pullback = jax.vjp(quant, x)
    return {"values": values, "grads": pullback(cotangent)[0]}
