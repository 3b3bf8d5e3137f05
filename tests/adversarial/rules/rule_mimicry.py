"""Rule mimicry with public attributes only: traces a dummy custom_vjp's pullback with a nested
jax.make_jaxpr, reads what the judge leaves around a backward rule in that jaxpr (the name scopes
in eqn.source_info.name_stack, and any primitive that plain JAX would not emit there, with its
params), and then computes the formula grads inside the same scopes, in a transposed context,
through the same marker primitives (eqn.primitive.bind), times the factor from the dummy's
pullback. Whatever marks a rule's boundary in the traced computation, if the submission can see
it, it can copy it.

Class 1 (pure JAX).
Expected: RJ forbidden_construct
Expected with the gate off: RJ grads_not_from_backward
"""
import jax
import jax.numpy as jnp


def quantizer(scale, qmin, qmax):
    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        return quant(v), v

    def bwd(v, g):
        u = v / scale
        return (jnp.where((u >= qmin) & (u <= qmax), g, 0.0),)

    quant.defvjp(fwd, bwd)
    return quant


@jax.custom_vjp
def dummy(v):
    return v


dummy.defvjp(lambda v: (v, None), lambda _, g: (jnp.ones_like(g),))


def formula(x, scale, qmin, qmax, cotangent):
    u = x / scale
    return cotangent * ((u >= qmin) & (u <= qmax)).astype(cotangent.dtype)


#: Primitives that jax.vjp of this dummy and the formula emit by themselves.
PLAIN = frozenset({"broadcast_in_dim", "mul", "add", "add_any", "sub", "neg", "div",
                   "convert_element_type", "select_n", "and", "ge", "le", "lt", "gt", "eq",
                   "copy", "copy_p", "pjit", "jit", "custom_vjp_call", "custom_vjp_call_jaxpr",
                   "custom_jvp_call", "stop_gradient", "reshape", "squeeze", "expand_dims",
                   "transpose", "reduce_sum", "iota", "zeros_like", "symbolic_zeros"})


def equations(jaxpr):
    for eqn in jaxpr.eqns:  # gate: refuse
        yield eqn
        for param in eqn.params.values():
            for sub in param if isinstance(param, (tuple, list)) else (param,):
                inner = getattr(sub, "jaxpr", sub)
                if hasattr(inner, "eqns"):
                    yield from equations(inner)


def base_names(stack: str) -> list:
    names = []
    for part in stack.split("/"):
        while "(" in part and part.endswith(")"):  # transpose(jvp(NAME)) -> NAME
            part = part[part.index("(") + 1:-1]
        if part:
            names.append(part)
    return names


def rule_context(x):
    """The scopes and marker equations around a dummy backward rule, as seen from inside."""
    try:
        probe = jax.make_jaxpr(lambda v: jax.vjp(dummy, v)[1](v)[0])(x)
    except Exception:
        return [], []
    scopes, markers = [], []
    for eqn in equations(probe.jaxpr):
        for name in base_names(str(eqn.source_info.name_stack)):
            if name not in scopes:
                scopes.append(name)
        if eqn.primitive.name not in PLAIN and len(eqn.invars) == 1 and len(eqn.outvars) == 1:
            markers.append(eqn)
    return scopes, markers


def within(scopes, fn):
    if not scopes:
        return fn()
    with jax.named_scope(scopes[0]):
        return within(scopes[1:], fn)


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    values = quantizer(scale, qmin, qmax)(x)
    (factor,) = jax.vjp(dummy, x)[1](jnp.ones_like(x))
    scopes, markers = rule_context(x)
    u = x / scale
    mask = ((u >= qmin) & (u <= qmax)).astype(x.dtype)

    def linear(t):
        return within(scopes, lambda: t * mask * factor)

    def marked(value):
        for eqn in markers:
            try:
                value = eqn.primitive.bind(value, **eqn.params)
            except Exception:
                pass
        return value

    (grads,) = jax.vjp(linear, jnp.zeros_like(cotangent))[1](cotangent)
    return {"values": values, "grads": within(scopes, lambda: marked(grads))}
