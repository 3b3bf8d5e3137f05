"""The source gate against attribute names computed at run time (issue 22): class patterns whose
``__match_args__`` the source does not fix, an ABC's ``register``, named tuples with computed
fields, ``jax.debug.print`` templates, ``dataclasses.asdict``; and its cost (a size cap before
parsing). The end-to-end attacks are ``tests/adversarial/rules/gate_bypass_match_args_*.py``
(graded by ``tests/test_rules_adversarial.py`` too); the honest styles are in
``tests/honest/fake_quant_ste/``."""

import ast
import textwrap
from pathlib import Path

import pytest

from judge import gate
from judge.grade import grading
from judge.grade.verdicts import Verdict

ROOT = Path(__file__).resolve().parents[1]
ATTACKS = sorted((ROOT / "tests" / "adversarial" / "rules").glob("gate_bypass_match_args_*.py"))
HONEST = sorted((ROOT / "tests" / "honest" / "fake_quant_ste").glob("*.py"))


def findings(source: str) -> list[gate.Finding]:
    return gate.check(textwrap.dedent(source))


# (id, source, the line refused, a piece of the finding). Each refuses one construct on its own.
REFUSED = [
    ("positional_pattern_on_a_class_with_a_foreign_base", """
        from collections import namedtuple

        class View(namedtuple("Fields", "a b")):
            pass

        def f(o):
            match o:
                case View(a, b):
                    return a
        """, 9, "positional sub-patterns on 'View'"),
    ("positional_pattern_on_an_abc_subclass", """
        from collections.abc import Sized

        class View(Sized):
            pass

        def f(o):
            match o:
                case View(a):
                    return a
        """, 9, "positional sub-patterns on 'View'"),
    ("positional_pattern_on_a_shadowed_builtin", """
        def f(o, View):
            int = View
            match o:
                case int(found):
                    return found
        """, 5, "positional sub-patterns on 'int'"),
    ("positional_pattern_on_a_builtin_that_is_a_parameter", """
        def f(o, str):
            match o:
                case str(found):
                    return found
        """, 4, "positional sub-patterns on 'str'"),
    ("positional_pattern_on_a_class_a_decorator_replaces", """
        def f(o, other):
            @lambda cls: other
            class View:
                pass

            match o:
                case View(found):
                    return found
        """, 8, "positional sub-patterns on 'View'"),
    ("positional_pattern_on_a_rebound_dataclass", """
        import dataclasses

        @dataclasses.dataclass
        class P:
            a: int

        def f(o, other):
            global P
            P = other
            match o:
                case P(a):
                    return a
        """, 12, "positional sub-patterns on 'P'"),
    ("positional_pattern_on_a_dataclass_without_its_match_args", """
        from dataclasses import dataclass
        from collections import namedtuple

        Base = namedtuple("Base", ["a"])

        @dataclass(match_args=False)
        class P(Base):
            b: int

        def f(o):
            match o:
                case P(a):
                    return a
        """, 13, "positional sub-patterns on 'P'"),
    ("positional_pattern_on_a_dataclass_with_unpacked_options", """
        from dataclasses import dataclass

        @dataclass(**{"match_args": False})
        class P:
            a: int

        def f(o):
            match o:
                case P(a):
                    return a
        """, 10, "positional sub-patterns on 'P'"),
    ("positional_pattern_on_an_attribute", """
        import collections

        def f(o):
            match o:
                case collections.OrderedDict(a):
                    return a
        """, 6, "positional sub-patterns on 'collections.OrderedDict'"),
    ("positional_pattern_reading_a_frame_field", """
        from typing import NamedTuple

        class Frame(NamedTuple):
            f_back: object

        def f(o):
            match o:
                case Frame(back):
                    return back
        """, 9, "the attribute 'f_back' a class pattern on 'Frame' reads"),
    ("keyword_pattern_with_a_refused_name", """
        def f(o, Anything):
            match o:
                case Anything(gi_frame=frame):
                    return frame
        """, 4, "the class pattern attribute 'gi_frame'"),
    ("abc_register", """
        from collections.abc import Hashable

        class Any_(Hashable):
            pass

        def f(gen):
            Any_.register(type(gen))
        """, 8, "attribute access 'register'"),
    ("namedtuple_with_computed_fields", """
        from collections import namedtuple

        def f(name):
            return namedtuple("Fields", [name])
        """, 5, "namedtuple() with computed field names"),
    ("namedtuple_with_a_refused_field", """
        import collections

        Fields = collections.namedtuple("Fields", "a gi_frame")
        """, 4, "the field name 'gi_frame' of namedtuple()"),
    ("typing_namedtuple_functional_with_computed_fields", """
        import typing

        def f(name):
            return typing.NamedTuple("Fields", [(name, object)])
        """, 5, "NamedTuple() with computed field names"),
    ("namedtuple_held_in_a_variable", """
        from collections import namedtuple

        make = namedtuple
        """, 4, "'namedtuple' used other than as a call"),
    ("debug_print_field_reads_an_attribute", """
        import jax

        def f(gen):
            jax.debug.print("{0.gi_frame}", gen)
        """, 5, "the format field '{0.gi_frame}'"),
    ("debug_print_with_a_computed_template", """
        import jax

        def f(gen, template):
            jax.debug.print(template, gen)
        """, 5, "with a template that is not a literal"),
    ("debug_log_keyword_template_reads_an_item", """
        import jax

        def f(x):
            jax.debug.log(fmt="{x[0]}", x=x)
        """, 5, "the format field '{x[0]}'"),
    ("debug_print_held_in_a_variable", """
        import jax

        show = jax.debug.print
        """, 4, "'jax.debug.print' used other than as a call"),
    ("debug_module_held_in_a_variable", """
        from jax import debug

        d = debug
        """, 4, "'debug' other than as jax.debug.<function>"),
    ("format_on_a_constant_bound_twice", """
        TEMPLATE = "{0}"
        TEMPLATE = "{0.gi_frame}"

        def f(gen):
            return TEMPLATE.format(gen)
        """, 6, "'.format' on a string that is not a literal"),
    ("format_on_a_constant_with_an_attribute_field", """
        TEMPLATE = "{0.gi_frame}"

        def f(gen):
            return TEMPLATE.format(gen)
        """, 5, "the format field '{0.gi_frame}'"),
    ("dataclasses_asdict", """
        import dataclasses

        def f(o):
            return dataclasses.asdict(o)
        """, 5, "attribute access 'asdict'"),
    ("dataclasses_astuple_imported", """
        from dataclasses import astuple
        """, 2, "import astuple"),
]


@pytest.mark.parametrize("source, line, expected", [r[1:] for r in REFUSED],
                         ids=[r[0] for r in REFUSED])
def test_refused(source, line, expected):
    found = findings(source)
    assert any(f.line == line and expected in str(f) for f in found), \
        f"expected line {line} with {expected!r}, got: {gate.summary(found, 9) or 'nothing'}"


ALLOWED = [
    ("match_on_plain_values", """
        def f(spec, shape):
            match spec:
                case {"qmin": int(lo), "qmax": int(hi), **rest} if not rest:
                    return lo, hi
                case (lo, hi) | [lo, hi, *_]:
                    return lo, hi
                case float() | int() | bool() | None | "auto":
                    return spec
                case str(name) | bytes(name):
                    return name
            match shape:
                case ():
                    return 0
                case (int(),):
                    return 1
        """),
    ("own_dataclasses_and_namedtuples_matched_positionally", """
        import dataclasses
        import functools
        import typing
        from dataclasses import dataclass

        import jax

        @dataclass(frozen=True, match_args=True)
        class Grid:
            scale: float

        @functools.total_ordering
        @dataclasses.dataclass(order=False)
        class Clipped(Grid):
            lo: int
            hi: int
            _cache: dict = None

        class Named(Clipped):
            pass

        class Pair(typing.NamedTuple):
            a: float
            b: float

        @jax.tree_util.register_dataclass
        @dataclass
        class Tree:
            leaf: jax.Array

        class Plain(object):
            pass

        def f(o):
            match o:
                case Named(s, lo, hi, c) | Clipped(s, lo, hi, c):
                    return s, lo, hi, c
                case Grid(s) | Pair(s, _) | Tree(s):
                    return s
                case Plain():
                    return None
        """),
    ("keyword_patterns_on_any_class", """
        import jax

        def f(o, Point):
            match o:
                case jax.ShapeDtypeStruct(shape=shape, dtype=dtype):
                    return shape, dtype
                case Point(x=a, y=b):
                    return a + b
        """),
    ("named_tuples_with_literal_fields", """
        import collections
        from collections import namedtuple
        from typing import NamedTuple

        Range = namedtuple("Range", ["lo", "hi"], defaults=[0])
        Step = collections.namedtuple("Step", "scale, offset")
        Pair = NamedTuple("Pair", [("a", float), ("b", float)])

        class Settings(NamedTuple):
            scale: float
            range: Range

        def f(s: Settings) -> "Settings":
            return s._replace(scale=1.0), s._asdict(), Settings._fields, Range._make([1, 2])
        """),
    ("plain_format_strings", """
        import jax

        TEMPLATE = "{} values in [{:+d}, {:+d}], step {scale:.4g}"

        def f(x, scale, qmin, qmax):
            width = 8
            jax.debug.print("x = {x} (first {0})", x[0], x=x)
            jax.debug.print("scale {}", scale, ordered=True)
            return [
                f"{x!r} {scale:.3f} {qmin:>{width}} {qmax!s:<4} {x.shape=}",
                TEMPLATE.format(x.size, qmin, qmax, scale=scale),
                "{0}..{1} ({kind})".format(qmin, qmax, kind="signed"),
                str.format("{}-{}", qmin, qmax),
                "{lo} / {hi}".format_map({"lo": qmin, "hi": qmax}),
                "%s and %.2f" % (x.size, scale),
                format(scale, ".2e"),
            ]
        """),
    ("jnp_log_and_dataclass_helpers", """
        import dataclasses

        import jax
        import jax.numpy as jnp

        @dataclasses.dataclass(frozen=True)
        class P:
            scale: float

        def f(x, p: P):
            q = dataclasses.replace(p, scale=2.0)
            names = [field.name for field in dataclasses.fields(q)]
            return jax.tree_util.tree_map(jnp.log, [x]), jnp.log(x), names, dataclasses.is_dataclass(q)
        """),
]


@pytest.mark.parametrize("source", [a[1] for a in ALLOWED], ids=[a[0] for a in ALLOWED])
def test_allowed(source):
    found = findings(source)
    assert not found, gate.summary(found, 9)


@pytest.mark.parametrize("path", HONEST, ids=lambda p: p.stem)
def test_every_honest_style_passes_the_gate(path):
    """The static half of the honest corpus (graded AC by tests/test_rules_adversarial.py)."""
    found = gate.check_file(path)
    assert found == [], gate.summary(found or [], 9)


def _marked_line(path: Path) -> int:
    marked = [n for n, line in enumerate(path.read_text().splitlines(), 1)
              if line.rstrip().endswith("# gate: refuse")]
    assert len(marked) == 1, path.name
    return marked[0]


def test_the_attacks_are_there():
    assert len(ATTACKS) >= 3


@pytest.mark.parametrize("path", ATTACKS, ids=lambda p: p.stem)
def test_attack_is_refused_at_its_class_pattern(path):
    line = _marked_line(path)
    found = gate.check_file(path)
    assert any(f.line == line and "class pattern" in f.construct for f in found), \
        gate.summary(found or [], 9)


@pytest.mark.parametrize("path", ATTACKS, ids=lambda p: p.stem)
def test_attack_is_graded_forbidden_construct(fq_problem, path):
    """Graded with the gate on, the attack never runs: RJ forbidden_construct on every case."""
    result = grading.grade(fq_problem, path, examples_only=True, source_gate=True, sandbox="none")
    assert result.verdict is Verdict.RJ and result.reason == "forbidden_construct", result.message
    assert f"line {_marked_line(path)}:" in result.message
    assert all(c.reason == "forbidden_construct" for c in result.cases)


# --- cost: the size cap comes before parsing ----------------------------------------------------

def test_a_source_over_the_cap_is_refused_unparsed(tmp_path, monkeypatch):
    big = tmp_path / "big.py"
    big.write_bytes(b"x = 1\n" * (gate.MAX_SOURCE_BYTES // 6 + 1))
    size = big.stat().st_size

    def no_parse(*args, **kwargs):
        raise AssertionError("parsed a source over the cap")

    monkeypatch.setattr(ast, "parse", no_parse)
    for found in (gate.check_file(big), gate.check(big.read_text())):
        assert len(found) == 1 and f"a source file of {size} bytes" in str(found[0])
        assert f"up to {gate.MAX_SOURCE_BYTES // 1024} KiB" in str(found[0])


def test_a_source_at_the_cap_is_checked(tmp_path):
    line = b"value = (1 + 2) * 3\n"
    at_cap = tmp_path / "at_cap.py"
    at_cap.write_bytes(line * (gate.MAX_SOURCE_BYTES // len(line)))
    assert gate.check_file(at_cap) == []
    assert gate.MAX_SOURCE_BYTES <= 128 * 1024  # the README's figures are for this cap
