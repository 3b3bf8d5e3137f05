"""A held-out-style round of honest code on all fifteen problems (``tests/adversarial/round16c/``),
written from the statements alone by people porting code from PyTorch, TensorFlow/Keras and
NumPy, or writing in a functional or defensive style: namespace classes of ``F``-style helpers
(``softmax(x, dim=-1)``, ``masked_fill``, ``cross_entropy``, ``nll_loss``, ``linear``),
``detach`` and ``autograd.Function`` ports, ``torch.lerp``, ``LambdaLR`` and
``optax.join_schedules`` with ``lax.switch``; Keras-style classes with ``build`` and ``call``
(an optimizer, a ``Dense`` layer, an RNN cell, a quantizer whose ``custom_vjp`` is built from
its own methods, a loss with an ``enum.Enum`` reduction, a loss
scale, a ``LearningRateSchedule``, a spectral normalization) and ``reduce_sum`` wrappers;
``np.newaxis``, ``x[..., None]``, ``jnp.einsum`` strings with spaces, ``jnp.inner``,
``tensordot(axes=...)``, ``jnp.apply_along_axis``, ``jnp.vectorize`` with a ``signature=`` in
place of ``vmap`` (also over a ``grad``), ``jnp.linalg.norm(ord=None)``, ``jnp.interp``;
``functools.reduce(operator.add/and_)``, ``itertools.chain``, ``operator.neg/mul`` and
``partial(operator.mul, ...)``, generator functions, ``tree_map`` over four trees split with
``itemgetter``, ``tree_structure``/``unflatten``/``flatten_up_to``, a pytree through a
``custom_vjp``; ``jnp.nan_to_num``, ``finfo(...).min``/``tiny``, ``where`` guards around square
roots and divisions, ``stop_gradient`` of a row maximum, ``.astype(jnp.float32)`` on outputs;
``TypeAlias``, ``jax.typing.ArrayLike``, ``Optional``, ``Union``, ``TypeVar``, ``Callable``,
``overload``; ``jax.jit(..., inline=True)``, ``jax.named_scope``, ``jax.checkpoint`` around a
scan's body, a ``custom_vjp`` layer, a float16 loss and a power-iteration step, and
``jax.remat`` with ``static_argnums``.
Two were refused by the source gate until fixed: a parameter named ``input`` (PyTorch's
``F.cross_entropy(input, target)``), refused wherever the name of a refused built-in appeared,
now allowed where it is a function's own variable (a parameter, or a name the function assigns),
which Python never resolves to the built-in (``judge.gate.shadows``; a default, an annotation,
a decorator, a comprehension's or a class body's binding, ``global`` and module level stay
refused); and a module-level read of ``jax.config.jax_enable_x64``, refused with all of
``jax.config``, now allowed for a few numeric flags read as ``jax.config.<flag>`` (``jax.config``
never held, written or called). One honest form stays refused (``Open:``): hyperparameters
kept in ``self.config``, since ``config`` is refused as an attribute name on any object and
``self`` may be a module passed through the class.
Beside them three mistakes students make: probabilities clipped at ``1e-7`` before the ``log``
(Keras' habit), which caps a confident wrong token's loss near 16; ``optax.clip_by_global_norm``
copied as written, whose ``lax.select`` branch not taken divides by a zero norm and gives a NaN
gradient at an all-zero tree; and the sign as ``jnp.copysign(1.0, x)``, which is not 0 at 0. (An EMA written as ``lerp(row, prev, decay)``,
the interpolation weighted toward the previous mean, loses about ``1e-5`` of the result to
cancellation at decays near 1, on the tolerance's edge, so no file holds it: the one here is
PyTorch's ``lerp(prev, row, 1 - decay)``.)

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

FOLDER = Path(__file__).resolve().parent / "adversarial" / "round16c"
SANDBOX = "bwrap" if sandbox.probe() is None else "none"
ATTACKS = corpus_files(FOLDER)


@pytest.mark.parametrize("path", corpus_params(ATTACKS))
def test_round16c_file_gets_its_verdict(path):
    grade_corpus_file(path, SANDBOX)


def test_round16c_is_documented():
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
