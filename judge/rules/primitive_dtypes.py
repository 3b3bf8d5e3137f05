"""Rule ``primitive_dtypes``: which dtypes named primitives compute in, on the path to the output.

Reads ``typed`` of the traced program's summary (``judge.worker.program``): every live equation
(one the outputs depend on, nested bodies included) counted by its primitive, its operands'
dtypes and its results' dtypes. Each entry of the rule names primitives and dtypes, and which
side of an equation it looks at (``of``: ``operands``, ``results`` or ``either``, the default);
an equation matches when it is one of the primitives and a value on that side has one of the
dtypes. With ``data: N`` it must also have at least N data operands: values computed from the
program's input arrays (inputs of at least one dimension), not from scalars, constants and
literals alone, nor through a decision: a bool of shape ``()`` such as ``finite`` (outside a
loop's body), or one computed from integer inputs alone such as a one-hot of labels; a bool
array computed from floating data is data, since its bits can rebuild the floats, and so is a
scalar one in a loop's body, whose trips' decisions carry a whole array, and what a ``cond``
on a data index chooses (``judge.worker.dataflow``). With ``x`` and ``params`` arrays and ``loss_scale``
of shape ``()``, ``x * dz`` has two, ``lr * g`` and ``g / loss_scale`` one; a divisor that is data
counts twice, so ``1 / dz`` has two (a reciprocal is nonlinear: products can be built from
reciprocals and sums).

* ``require``: at least ``at_least`` (default 1) live equations match each entry. "The
  gradient's matrix products run in float16": ``{primitives: [dot_general], dtypes: [float16],
  at_least: 2}``. With ``at_most``, no more than that many may match (reason
  ``repeated_computation``): "one forward pass" on a linear classifier is ``{primitives:
  [dot_general], dtypes: [float32], of: operands, data: 2, at_least: 0, at_most: 2}``, ``x @ w``
  and its gradient, where the loss computed beside ``jax.grad`` multiplies ``x @ w`` twice.
* ``forbid``: no live equation matches any entry. ``{primitives: [dot_general], dtypes:
  [float32, float64, bfloat16]}`` refuses a float32 program that imitates float16 overflow by
  comparing its gradient with 65504, and a bfloat16 one. ``{primitives: [mul, div], dtypes:
  [float32], of: operands, data: 2}`` refuses a float32 gradient written by hand with
  elementwise products and sums in place of matrix products (even one scalar at a time), while a
  float32 unscale and update (``p - lr * g / loss_scale``: one data operand each) pass.

An indexing primitive's data operands are its indices computed from floating data, not what it
reads or writes (``primitive_names.INDEXING``): ``{primitives: [gather, ...], dtypes: [float32,
int32, ...], of: operands, data: 1}`` refuses a lookup at indices read off the data, a constant
table of the float16 values' squares indexed by a value's float16 bits (``bitcast_convert_type``)
being a square without a product, while data moved by constant indices, or by labels, passes.

With ``widened: N``
it must have at least N operands that are floating data some equation on their way from the
input arrays computed in a type other than float16, not merely cast or moved (``judge.worker.
dataflow``): "what float16 computes never reads what float32 computed from the data" is
``{primitives: [dot_general, mul, ...], dtypes: [float16], of: operands, widened: 1}``, which
refuses a float32 loss head (the float16 prediction cast up, its residual squared in float32)
whose derivative by the prediction is cast back to float16 for the backward products, while the
inputs cast to float16 are data at the usual level.

With ``straight: true`` no value the program returns may be bent (``judge.worker.bent``):
floating data that a type other than float16 computed by something other than a linear map
(``abs``, ``max``, a rounding, a comparison of two data values, a choice by a bent flag, a
second choice of a chosen value), while casts of float16 values, their sums and their scalings
by values that are not data, their tests against a constant or for finiteness, and one choice
by such tests are straight. "The float32 step only unscales, checks and applies the float16
gradient" is ``straight: true``: a float32 backward pass rebuilt without any product of two data
values (squares from the tent map's ``abs``, products from one operand's bits choosing shifted
copies of the other by ``where``) returns bent values, while ``abs(g) == inf``, ``max`` of
``|g|`` tested for finiteness (a decision of shape ``()``, which is no data),
``jnp.nan_to_num(g)`` and ``where(u == 0, p, p + u)`` leave the update straight.

An equation whose result is thrown away is not live and counts for neither. A summary that had
to leave dtypes out (more distinct (primitive, dtypes) than it lists) is refused: what was left
out could be what a ``forbid`` entry names.
"""

from __future__ import annotations

from judge.problem.schema_file import computed_dtypes
from judge.rules import primitive_names
from judge.rules.base import Breach, TraceEvidence, number

ID = "primitive_dtypes"
EVIDENCE = ("program",)
REASONS = ("wrong_precision", "repeated_computation")
SIDES = {"operands": "operands", "results": "results", "either": "operands or results"}


#: ``straight: true`` in words.
STRAIGHT = ("no value returned may be computed from the input arrays in another type than float16 "
            "by something other than casts, sums and scalings (abs, max, a rounding, a comparison, "
            "a choice by a data flag)")


def _said(entry: dict) -> str:
    side = SIDES[entry.get("of", "either")]
    data, wide = entry.get("data"), entry.get("widened")
    what = ("an index", "indices") if set(entry["primitives"]) <= primitive_names.INDEXING else \
        ("an operand", "operands")
    of_data = "" if not data else \
        f" and {what[0] if data == 1 else f'at least {data} {what[1]}'} computed from the input arrays"
    if wide:
        of_data += (f" and {'an operand' if wide == 1 else f'at least {wide} operands'} computed "
                    f"from the input arrays in another type than float16 (not only cast or moved)")
    return f"{' or '.join(entry['primitives'])} with {side} in {_types(entry['dtypes'])}{of_data}"


def _types(dtypes) -> str:
    """``dtypes`` in words: listed one by one, or as every type but the few left out."""
    left = [t for t in computed_dtypes() if t not in dtypes]
    if len(dtypes) > 6 and len(left) <= 2:
        return f"any type but {' and '.join(left)}" if left else "any type"
    return " or ".join(dtypes)


def describe(rule: dict) -> str:
    said = []
    if rule.get("straight"):
        said.append(STRAIGHT)
    for entry in rule.get("require", ()):
        least, most = entry.get("at_least", 1), entry.get("at_most")
        if most is None:
            said.append(f"at least {least} {_said(entry)} must compute the output")
        elif least:
            said.append(f"from {least} to {most} {_said(entry)} must compute the output")
        else:
            said.append(f"at most {most} {_said(entry)} may compute the output")
    for entry in rule.get("forbid", ()):
        said.append(f"no {_said(entry)} may compute the output")
    return "; ".join(said)


def validate(rule: dict, problem) -> list:
    if not rule.get("require") and not rule.get("forbid") and not rule.get("straight"):
        return [("id", "give require, forbid, straight, or more than one")]
    for i, entry in enumerate(rule.get("require", ())):
        if entry.get("at_most") is not None and entry["at_most"] < entry.get("at_least", 1):
            return [("require", f"entry {i}: at_most {entry['at_most']} is below at_least "
                                f"({entry.get('at_least', 1)})")]
    return []


def matches(entry: dict, typed) -> int:
    """How many live equations of ``typed`` ((primitive, operand dtypes, result dtypes, data
    operands, widened operands) -> count) match ``entry``."""
    names = {s for p in entry["primitives"] for s in primitive_names.spellings(p)}
    wanted = set(entry["dtypes"])
    side = entry.get("of", "either")
    least = entry.get("data", 0)
    found = 0
    widest = entry.get("widened", 0)
    for (primitive, operands, results, data, *wide), n in typed.items():
        if primitive not in names or data < least or (wide[0] if wide else 0) < widest:
            continue
        seen = (set(operands) if side != "results" else set()) | \
               (set(results) if side != "operands" else set())
        if seen & wanted:
            found += n
    return found


def _seen(entry: dict, typed, matching: bool = False) -> str:
    """What the program's equations of the entry's primitives compute in, for a message; with
    ``matching``, only those the entry matches."""
    names = {s for p in entry["primitives"] for s in primitive_names.spellings(p)}
    counted, widened = "data" in entry, "widened" in entry
    told = sorted({f"{p}({', '.join(ops)}) -> {', '.join(res)}"
                   + (f" with {n} data operand{'' if n == 1 else 's'}" if counted else "")
                   + (f" with {w[0] if w else 0} operand{'' if w[:1] == [1] else 's'} computed "
                      f"outside float16" if widened else "")
                   for (p, ops, res, n, *w), count in typed.items() if p in names
                   and (not matching or matches(entry, {(p, ops, res, n, *w): count}))})
    return ("; it has " + "; ".join(told[:6]) + (" ..." if len(told) > 6 else "")) if told else \
        f"; it has no live {' or '.join(entry['primitives'])}"


def check(rule: dict, trace: TraceEvidence, problem) -> Breach | None:
    program = trace.program
    if program is None:
        return None
    if program.typed_omitted:
        return Breach("wrong_precision",
                      f"{trace.label}: the traced program has more distinct operations and dtypes "
                      f"than the judge can list ({number(program.typed_omitted)} left out); this "
                      f"problem's rule on dtypes must see them all")
    for entry in rule.get("forbid", ()):
        found = matches(entry, program.typed)
        if found:
            return Breach("wrong_precision",
                          f"{trace.label}: {number(found)} equation{'s' if found > 1 else ''} "
                          f"computing the output {'are' if found > 1 else 'is'} {_said(entry)}, which "
                          f"this problem forbids{_seen(entry, program.typed, matching=True)}")
    for entry in rule.get("require", ()):
        least = entry.get("at_least", 1)
        found = matches(entry, program.typed)
        most = entry.get("at_most")
        if most is not None and found > most:
            return Breach("repeated_computation",
                          f"{trace.label}: {number(found)} equations computing the output are "
                          f"{_said(entry)}, this problem allows at most {number(most)}"
                          f"{_seen(entry, program.typed, matching=True)}"
                          + (f" ({entry['says']})" if entry.get("says") else ""))
        if found < least:
            return Breach("wrong_precision",
                          f"{trace.label}: {number(found)} equation{'' if found == 1 else 's'} "
                          f"computing the output {'is' if found == 1 else 'are'} {_said(entry)}, "
                          f"this problem requires at least {number(least)}{_seen(entry, program.typed)}")
    if rule.get("straight") and program.bent_outputs:
        return Breach("wrong_precision",
                      f"{trace.label}: {number(program.bent_outputs)} value"
                      f"{'s' if program.bent_outputs > 1 else ''} returned {'are' if program.bent_outputs > 1 else 'is'} "
                      f"computed from the input arrays in another type than float16 by something "
                      f"other than casts, sums and scalings (abs, max, a rounding, a comparison, a "
                      f"choice by a data flag), which this problem forbids: the wider type only "
                      f"unscales, checks and applies what float16 computed")
    return None
