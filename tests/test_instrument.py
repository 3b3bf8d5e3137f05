"""The jaxpr walk finds primitives and custom_vjp calls inside every kind of sub-jaxpr."""

import jax
import jax.numpy as jnp
import pytest

from judge.worker import instrument


@jax.custom_vjp
def ste(x):
    return jnp.round(x)


ste.defvjp(lambda x: (ste(x), None), lambda _, g: (g,))


def in_jit(x):
    return jax.jit(lambda v: ste(v) * 2)(x)


def in_cond(x):
    return jax.lax.cond(x.sum() > 0, ste, lambda v: v, x)


def in_scan(x):
    def body(carry, v):
        return carry + ste(v), None
    return jax.lax.scan(body, jnp.zeros(()), x)[0]


def in_while(x):
    return jax.lax.while_loop(lambda v: v.sum() < 10, lambda v: ste(v) + 1, x)


def in_custom_jvp(x):
    @jax.custom_jvp
    def f(v):
        return ste(v)
    f.defjvp(lambda p, t: (f(p[0]), t[0]))
    return f(x)


def nested(x):
    return jax.jit(lambda v: jax.lax.cond(v.sum() > 0, in_scan, lambda u: u.sum(), v))(x)


@pytest.mark.parametrize("fn", [in_jit, in_cond, in_scan, in_while, in_custom_jvp, nested])
def test_custom_vjp_call_found_in_sub_jaxprs(fn):
    found = instrument.walk_primitives(jax.make_jaxpr(fn)(jnp.ones(3)))
    assert found["custom_vjp_calls"] >= 1
    assert "custom_vjp_call" in found["primitives"] or "custom_vjp_call_jaxpr" in found["primitives"]


def test_stop_gradient_trick_has_no_custom_vjp_call():
    def trick(x):
        return x + jax.lax.stop_gradient(jnp.round(x) - x)
    found = instrument.walk_primitives(jax.make_jaxpr(trick)(jnp.ones(3)))
    assert found["custom_vjp_calls"] == 0
    assert "round" in found["primitives"]


def test_callbacks_are_visible_inside_jit():
    import numpy as np

    def cb(x):
        return jax.jit(lambda v: jax.pure_callback(np.round, jax.ShapeDtypeStruct(v.shape, v.dtype), v))(x)
    found = instrument.walk_primitives(jax.make_jaxpr(cb)(jnp.ones(3)))
    assert "pure_callback" in found["primitives"]


def test_both_primitive_names_are_accepted():
    assert {"custom_vjp_call", "custom_vjp_call_jaxpr"} <= instrument.CUSTOM_VJP_PRIMITIVES
