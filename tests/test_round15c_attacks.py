"""A held-out-style round of honest code on all fifteen problems (``tests/adversarial/round15c/``),
written from the statements alone in the habits of people who come to JAX from NumPy or
PyTorch: ``from __future__ import annotations`` with ``jax.Array`` hints, ``typing.NamedTuple``
states, carries and parameters (split with ``jax.tree.map(..., is_leaf=...)`` or turned back
with ``_asdict()``), frozen dataclasses as hyperparameters and as a ``custom_vjp`` residual
registered with ``jax.tree_util.register_dataclass``, module-level NumPy constants, the ``math``
module on static numbers, ``functools.cache`` on a quantizer factory and on a schedule's
constants, a recursive walk over nested dicts, keyword-only arguments and ``*args``
forwarding, lambdas assigned to names, ``jnp.float32`` casts, ``.T``, ``jnp.swapaxes``,
``jnp.moveaxis`` with ``in_axes=-1``, ``jnp.expand_dims``, ``jnp.einsum`` with an ellipsis,
``jnp.linalg.norm(..., keepdims=True)`` where its argument is never zero, ``jnp.clip`` with
``min=``/``max=``, ``jnp.where`` and ``jnp.select`` on scalars, ``lax.rsqrt``,
``jnp.reciprocal``, ``jnp.square``, the builtin ``sum`` over a fixed list of leaves,
``functools.reduce`` of ``logical_and``, ``lax.cond`` between a step and its skip, a scan of a
given ``length`` with no ``xs``, a ``while_loop`` with a counter, a ``custom_jvp`` bilinear form
and ``defjvps``, plain ``print``\\ s of shapes, ``assert`` on ranks, and docstrings with a
``__main__`` self-test.
jaxtyping-style shape strings in annotations without jaxtyping (``Float[Array, "b t d"]``, also
inside a quoted annotation): refused by the source gate, which took every string in an
annotation for code, until a string of plain words inside one was read as data (no wrapping
makes it parse, so nothing can evaluate it); ``fori_loop`` and ``scan`` with ``unroll``,
``jnp.piecewise`` and ``jnp.select`` schedules, ``y`` returned as ``x`` beside the layer's
pullback, ``tensordot`` and reverse-over-forward; ``jax.debug.print`` left in (allowed: it
computes nothing), with a format spec inside the function ``vmap`` maps over a symbolic batch:
an error on every case, since the judge binds such a print once with the whole batch and NumPy
formats an array with no spec, until the specs were left out of that one print. Two honest forms stay refused (``Open:``): a
``getattr`` whose name is a lambda's parameter, and a quantizer's values computed by the formula
outside the ``custom_vjp`` function that wraps it.
Beside them two mistakes students make: squared norms as ``jnp.linalg.norm(...) ** 2``, whose
derivative at an all-zero row is NaN, and attention weights masked after a full softmax and
divided by their sum again, 0 / 0 where the visible weights underflow.

Each file's docstring names its problem and the verdict a correct judge gives (``Expected:
VERDICT [reason]``), ``Cases: all`` where the examples alone do not show it, and ``Open:`` for a
hole still open (a strict expected failure). They are graded as a student's would be, with the
source gate on. The default run grades the first file of each expected verdict; ``-m slow``
grades the rest.
"""

from pathlib import Path

import pytest

from judge.run import sandbox
from tests.helpers import check_corpus_documented, corpus_files, corpus_params, grade_corpus_file

FOLDER = Path(__file__).resolve().parent / "adversarial" / "round15c"
SANDBOX = "bwrap" if sandbox.probe() is None else "none"
ATTACKS = corpus_files(FOLDER)


@pytest.mark.parametrize("path", corpus_params(ATTACKS))
def test_round15c_file_gets_its_verdict(path):
    grade_corpus_file(path, SANDBOX)


def test_round15c_is_documented():
    check_corpus_documented(ATTACKS)
    assert len(ATTACKS) >= 45
    problems = {p.stem for p in (FOLDER.parent.parent.parent / "problems").glob("*.yaml")}
    covered = {max((p for p in problems if path.stem.startswith(p + "_")), key=len)
               for path in ATTACKS}
    assert covered == problems
    for problem in problems:
        assert sum(path.stem.startswith(problem + "_") for path in ATTACKS) >= 3, problem
    honest = [p for p in ATTACKS if p.read_text().count("Expected: AC")]
    assert 9 * len(honest) >= 8 * len(ATTACKS)
