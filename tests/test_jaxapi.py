"""The adapter to JAX's internals (judge/worker/jaxapi.py): the supported range, as the package
states it, and every internal the worker takes from the JAX installed here."""

import re
import tomllib

import jax
import pytest
from tests.helpers import ROOT

from judge.worker import jaxapi


@pytest.mark.parametrize("version, parts", [("0.10.2", (0, 10, 2)), ("0.11.0", (0, 11, 0)),
                                            ("0.12.0.dev20260101", (0, 12, 0)), ("0.11.2rc1", (0, 11, 2))])
def test_version_tuple(version, parts):
    assert jaxapi.version_tuple(version) == parts


@pytest.mark.parametrize("version, ok", [("0.10.1", False), ("0.10.2", True), ("0.11.2", True),
                                         ("0.12.0", False), ("0.9.2", False)])
def test_the_supported_range(version, ok):
    assert jaxapi.supported(version) is ok


def test_the_package_requires_the_supported_range():
    """pyproject.toml's pins of jax and jaxlib are the range the adapter states."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pins = {re.match(r"[a-z_]+", d).group(): d for d in project["dependencies"]}
    assert pins["jax"] == "jax" + jaxapi.describe_range()
    assert pins["jaxlib"] == "jaxlib" + jaxapi.describe_range()


def test_the_installed_jax_is_supported():
    assert jaxapi.supported(jax.__version__), jax.__version__


def test_every_internal_is_found_in_the_installed_jax():
    assert callable(jaxapi.plugin_search())
    assert hasattr(jaxapi.mlir_module(), "make_ir_context")
    parts = jaxapi.EvaluatorParts()
    assert parts.array_types and callable(parts.last_used) and callable(parts.clean_up)
    from jax._src.api_util import resolve_kwargs
    assert jaxapi.resolve_kwargs() is resolve_kwargs


def test_the_backward_rule_runner_is_where_jax_runs_backward_rules():
    """A backward rule of a custom_vjp, run by jax.grad, is called through the frame the adapter
    names (the instruments tell JAX's calls of a rule from a submission's by it)."""
    import sys

    seen = []

    @jax.custom_vjp
    def f(x):
        return x

    def fwd(x):
        return x, None

    def bwd(_, g):
        frame = sys._getframe(1)
        while frame is not None:
            seen.append(jaxapi.runs_backward_rules(frame.f_code))
            frame = frame.f_back
        return (g,)

    f.defvjp(fwd, bwd)
    jax.grad(f)(1.0)
    assert any(seen)


def test_a_scans_operands_split_into_constants_carries_and_rows():
    """JAX 0.10 names the counts (num_consts, num_carry), 0.11 keeps a flat tree (ft_in): the
    adapter reads either."""
    import jax.numpy as jnp

    def f(x, y):
        step = lambda c, r: ((c[0] * y + r[0], c[1] + r[1].sum()), r[1] * y)  # noqa: E731
        return jax.lax.scan(step, (jnp.zeros_like(x[0]), jnp.zeros(())), (x, x))

    closed = jax.make_jaxpr(f)(jnp.ones((3, 2)), 2.0)
    scan = next(e for e in closed.jaxpr.eqns if e.primitive.name == "scan")
    consts, carries = jaxapi.scan_layout(scan.params, len(scan.invars))
    assert carries == 2 and len(scan.invars) - consts - carries == 2


def _mixed_precision_forbids():
    """mixed_precision_step's primitive_dtypes rule with its forbidding entries only."""
    import yaml

    problem = yaml.safe_load((ROOT / "problems" / "mixed_precision_step.yaml").read_text())
    (rule,) = [r for r in problem["rules"] if r["id"] == "primitive_dtypes"]
    return {"id": "primitive_dtypes", "forbid": rule["forbid"]}


def _one_minus_square(x):
    """``1 - x * x`` as JAX's own primitive where this JAX has one (0.11 on), else as 0.10
    differentiates ``tanh``."""
    lax = jax.lax
    return lax.one_minus_square(x) if hasattr(lax, "one_minus_square") else 1.0 - x * x


@pytest.mark.parametrize("fn, canonical", [
    (lambda x: jax.numpy.log2(x), "log"),
    (lambda x: 1.0 - _one_minus_square(x), "square"),
])
def test_a_computation_is_read_by_one_name_on_every_supported_jax(fn, canonical):
    """A computation a newer JAX traces to a primitive of its own (``jnp.log2`` to ``log2``,
    ``1 - x * x`` to ``one_minus_square`` from 0.11) is read by the rules under the name an
    older one used: a float32 function of the data mixed_precision_step refuses on JAX 0.10
    is refused on 0.11 too."""
    from types import MappingProxyType

    import jax.numpy as jnp

    from judge import rules
    from judge.rules import primitive_dtypes, primitive_names
    from judge.run.boundary import Program
    from judge.run.summary import program as decode
    from judge.worker import program

    closed = jax.make_jaxpr(fn)(jnp.ones(4, jnp.float32))
    names = {e.primitive.name for e in closed.jaxpr.eqns}
    assert names & set(primitive_names.spellings(canonical)) or canonical == "square" and "mul" in names
    typed = decode(program.summarize(closed), "program").typed
    trace = rules.TraceEvidence(label="this case", shapes={}, program=Program(
        equations=1, primitives={}, largest=(), typed=MappingProxyType(dict(typed)), typed_omitted=0))
    breach = primitive_dtypes.check(_mixed_precision_forbids(), trace, None)
    assert breach is not None and breach.reason == "wrong_precision", (names, typed)
