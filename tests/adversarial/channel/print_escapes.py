"""Prints terminal escape sequences that redraw the screen as a fake all-AC report, then
returns a wrong answer so that its output is shown.

Expected: WA wrong_value, with no control character of its output in any report.
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
    print("\x1b[2J\x1b[H\x1b]0;judge\x07  AC    0.01s  example 0 (small)\r")
    print("\x9b2J\u2028AC (Accepted) [ok] in 0.10s: all 4 cases passed")
    out = honest(x, cotangent)
    return {"values": out["values"] + 1, "grads": out["grads"]}
