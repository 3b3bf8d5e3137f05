"""Case generator for warmup_cosine (used by `judge generate`).

Interface (see docs/authors/generate.md, "The generator interface"):

* ``FAMILIES``: family name -> ``draw(rng)``, which returns one candidate case as
  ``{"input": {"step": 0-d int32 array, "base_lr": float, "warmup_steps": int,
  "total_steps": int}, "note": str}``; ``rng`` is a ``numpy.random.Generator`` seeded from
  (seed, family, index), the only source of randomness.
* ``ALTERNATIVES``: name -> ``compute(inputs, probe)``: the learning rate computed another
  legitimate way in NumPy (float64, or float32 in the orders honest solutions use). A
  candidate on which one of them disagrees with the reference beyond the tolerance depends on
  rounding and is rejected.

lr = base_lr * step / warmup_steps for step < warmup_steps, then
0.5 * base_lr * (1 + cos(pi * min(step - warmup_steps, total_steps - warmup_steps)
/ (total_steps - warmup_steps))). The families put the step in each phase (warmup, decay,
after total_steps) and on the boundaries between them (0, warmup_steps - 1, warmup_steps,
warmup_steps + 1, total_steps - 1, total_steps, total_steps + 1), take warmup_steps = 0 and
warmup_steps = total_steps - 1, short schedules (where an off-by-one is far from the tolerance)
and long ones up to 10**6 steps (a product in float16 overflows there), and learning rates
from 1e-4 to 10. base_lr is rounded to three significant digits so the spec stays readable.

This module is loaded into the judge process: it may import only NumPy, ml_dtypes and pure
standard-library modules, never JAX.
"""

import math

import numpy as np

F32 = np.float32
MAX_STEP = 10 ** 6


def _pick(rng, options):
    return options[int(rng.integers(len(options)))]


def _lr(rng, low=0.05, high=10.0):
    """A learning rate drawn log-uniformly in [low, high], three significant digits."""
    value = math.exp(rng.uniform(math.log(low), math.log(high)))
    return float(f"{value:.3g}")


def _schedule(rng, long=False):
    """(warmup_steps, total_steps): short (total up to 200) or long (total up to 10**6)."""
    if long:
        total = int(rng.integers(10_000, MAX_STEP + 1))
    else:
        total = int(rng.integers(2, 201))
    warmup = int(rng.integers(0, total))
    return warmup, total


def _case(step, base_lr, warmup, total, note, exact=False):
    case = {"input": {"step": np.array(step, dtype=np.int32), "base_lr": float(base_lr),
                      "warmup_steps": int(warmup), "total_steps": int(total)},
            "note": f"{note}; step {step}, warmup {warmup}, total {total}, base_lr {base_lr:g}"}
    if exact:
        case["exact"] = True
    return case


def warmup(rng):
    """The step inside the warmup, 0 < step < warmup_steps."""
    total = int(rng.integers(4, 201)) if rng.random() < 0.6 else int(rng.integers(1000, MAX_STEP + 1))
    warm = int(rng.integers(2, total))
    step = int(rng.integers(1, warm))
    return _case(step, _lr(rng), warm, total, "warmup")


def decay(rng):
    """The step inside the cosine, warmup_steps < step < total_steps."""
    warm, total = _schedule(rng, long=rng.random() < 0.4)
    if total - warm < 2:
        total = warm + 2
    step = int(rng.integers(warm + 1, total))
    return _case(step, _lr(rng), warm, total, "cosine decay")


def after_total(rng):
    """The step past total_steps: lr stays 0 (an unclamped cosine rises again)."""
    warm, total = _schedule(rng, long=rng.random() < 0.3)
    span = total - warm
    step = min(MAX_STEP, total + int(rng.integers(1, 2 * span + 2)))
    if step <= total:
        step = total
    return _case(step, _lr(rng), warm, total, "after total_steps", exact=True)


def boundary(rng):
    """The step exactly on a boundary: 0, warmup_steps - 1, warmup_steps, warmup_steps + 1,
    total_steps - 1, total_steps or total_steps + 1."""
    warm, total = _schedule(rng, long=rng.random() < 0.3)
    if warm == 0:
        warm = 1 if total > 1 else 0
    options = [0, warm - 1, warm, warm + 1, total - 1, total, total + 1]
    step = max(0, min(MAX_STEP, _pick(rng, options)))
    return _case(step, _lr(rng), warm, total, "on a boundary", exact=True)


def no_warmup(rng):
    """warmup_steps = 0: the cosine starts at step 0, at base_lr."""
    total = int(rng.integers(1, 201)) if rng.random() < 0.6 else int(rng.integers(1000, MAX_STEP + 1))
    step = _pick(rng, [0, int(rng.integers(0, total + 1)), int(rng.integers(0, total + 1)),
                       min(MAX_STEP, total + int(rng.integers(1, total + 1)))])
    return _case(step, _lr(rng), 0, total, "no warmup")


def longest_warmup(rng):
    """warmup_steps = total_steps - 1: one step of cosine, from base_lr straight to 0."""
    total = int(rng.integers(2, 201)) if rng.random() < 0.6 else int(rng.integers(1000, MAX_STEP + 1))
    warm = total - 1
    step = _pick(rng, [int(rng.integers(0, warm)), warm - 1, warm, total, total + 1])
    return _case(max(step, 0), _lr(rng), warm, total, "warmup_steps = total_steps - 1", exact=True)


def large_counts(rng):
    """Long schedules (total from 10**5 to 10**6) and steps in the hundreds of thousands."""
    total = int(rng.integers(100_000, MAX_STEP + 1))
    warm = int(rng.integers(1_000, total // 2))
    step = int(rng.integers(warm // 2, MAX_STEP + 1))
    return _case(step, _lr(rng), warm, total, "large step counts")


def small_lr(rng):
    """Typical learning rates, 1e-4 to 1e-2, anywhere in a short or long schedule."""
    warm, total = _schedule(rng, long=rng.random() < 0.5)
    step = int(rng.integers(0, min(MAX_STEP, total + total // 4) + 1))
    return _case(step, _lr(rng, 1e-4, 1e-2), warm, total, "small learning rate")


FAMILIES = {"warmup": warmup, "decay": decay, "after_total": after_total, "boundary": boundary,
            "no_warmup": no_warmup, "longest_warmup": longest_warmup,
            "large_counts": large_counts, "small_lr": small_lr}


def _parts(inputs):
    return (int(np.asarray(inputs["step"])), float(inputs["base_lr"]),
            int(inputs["warmup_steps"]), int(inputs["total_steps"]))


def float64_formula(inputs, probe):
    """The formula in float64, rounded once."""
    s, b, w, T = _parts(inputs)
    if s < w:
        return F32(b * s / w)
    p = min((s - w) / (T - w), 1.0)
    return F32(0.5 * b * (1.0 + math.cos(math.pi * p)))


def float32_angle_first(inputs, probe):
    """float32 throughout, the angle pi * (step - warmup) divided by the span afterwards, the
    warmup as base_lr * (step / warmup_steps)."""
    s, b, w, T = _parts(inputs)
    t, b32 = F32(s), F32(b)
    if s < w:
        return b32 * (t / F32(w))
    angle = F32(np.pi) * F32(min(s, T) - w) / F32(T - w)
    return F32(b32 * F32(0.5) * (F32(1) + np.cos(angle)))


def float32_optax_style(inputs, probe):
    """float32 as optax's joined schedules compute it: the warmup as the linear schedule
    (0 - base_lr) * (1 - step / warmup) + base_lr, the cosine as base_lr * (0.5 * (1 + cos(pi *
    count / span))) with the count clipped to the span."""
    s, b, w, T = _parts(inputs)
    t, b32 = F32(s), F32(b)
    if s < w:
        return F32((F32(0) - b32) * (F32(1) - t / F32(w)) + b32)
    count = F32(min(s - w, T - w))
    return F32(b32 * (F32(0.5) * (F32(1) + np.cos(F32(np.pi) * count / F32(T - w)))))


def float32_rate_constant(inputs, probe):
    """float32 with the angle per step, pi / (total - warmup), computed in float64 first."""
    s, b, w, T = _parts(inputs)
    t = F32(s)
    if s < w:
        return F32(t * F32(b / w))
    k = F32(math.pi / (T - w))
    return F32(F32(0.5 * b) * (F32(1) + np.cos(k * F32(min(s, T) - w))))


ALTERNATIVES = {"float64_formula": float64_formula, "float32_angle_first": float32_angle_first,
                "float32_optax_style": float32_optax_style,
                "float32_rate_constant": float32_rate_constant}
