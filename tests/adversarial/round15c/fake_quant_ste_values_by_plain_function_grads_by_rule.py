"""fake_quant_ste: the forward formula as a plain module-level function used for the values, and
the same function wrapped with ``jax.custom_vjp`` (by calling ``jax.custom_vjp(q)``) for the
gradient, taken with ``jax.vjp``; the values are the same numbers either way.

Problem: fake_quant_ste
Expected: AC
Open: RJ values_not_from_custom_vjp: the values must come out of the custom_vjp function (its
  forward, or the function applied again), and the same formula applied outside it is not
  matched with the function's forward: ``ste(x)`` for the values passes and ``q(x)`` does not.
  Moved with the function's output, ``q(x)`` stays (it is not computed from that output), and
  accepting it would take the function's output at the case compared with the values bit for
  bit, which the worker does not read: the output marker sits inside the program (a ``scan``'s
  or a ``cond``'s body as often as not), and only the program's outputs are evaluated out
Cases: all
"""
import jax
import jax.numpy as jnp


def q(x, scale, qmin, qmax):
    return scale * jnp.clip(jnp.round(x / scale), qmin, qmax)


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    ste = jax.custom_vjp(lambda a: q(a, scale, qmin, qmax))
    ste.defvjp(lambda a: (q(a, scale, qmin, qmax), a / scale),
               lambda r, g: (jnp.where((r >= qmin) & (r <= qmax), g, 0.0),))
    _, pull = jax.vjp(ste, x)
    return {"values": q(x, scale, qmin, qmax), "grads": pull(cotangent)[0]}
