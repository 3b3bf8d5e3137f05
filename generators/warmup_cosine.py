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
and one of 10**6 steps (a product in float16 overflows there), and learning rates from 3e-4 to
6, all from the short list ``SCHEDULES``.

This module is loaded into the judge process: it may import only NumPy, ml_dtypes and pure
standard-library modules, never JAX.
"""

import math

import numpy as np

F32 = np.float32
MAX_STEP = 10 ** 6


def _pick(rng, options):
    return options[int(rng.integers(len(options)))]


#: (base_lr, warmup_steps, total_steps): each is a program a worker traces for every
#: submission graded, so the cases draw them from this short list (the examples' schedule, the
#: written cases' own) and vary the traced step freely
EXAMPLE = (0.4, 10, 110)
SHORT = (1.0, 10, 20)
MEDIUM = (2.5, 100, 1000)
NO_WARMUP = (0.5, 0, 100)
LONGEST_WARMUP = (1.25, 999, 1000)
TINY = (6.0, 1, 3)
LONG = (2.0, 200_000, MAX_STEP)
SMALL_LR = (0.0003, 2000, 100_000)
SCHEDULES = [EXAMPLE, SHORT, MEDIUM, NO_WARMUP, LONGEST_WARMUP, TINY, LONG, SMALL_LR]


def _case(step, schedule, note, exact=False):
    base_lr, warmup, total = schedule
    case = {"input": {"step": np.array(step, dtype=np.int32), "base_lr": float(base_lr),
                      "warmup_steps": int(warmup), "total_steps": int(total)},
            "note": f"{note}; step {step}, warmup {warmup}, total {total}, base_lr {base_lr:g}"}
    if exact:
        case["exact"] = True
    return case


def warmup(rng):
    """The step inside the warmup, 0 < step < warmup_steps."""
    schedule = _pick(rng, [s for s in SCHEDULES if s[1] >= 2])
    return _case(int(rng.integers(1, schedule[1])), schedule, "warmup")


def decay(rng):
    """The step inside the cosine, warmup_steps < step < total_steps."""
    schedule = _pick(rng, [s for s in SCHEDULES if s[2] - s[1] >= 2])
    return _case(int(rng.integers(schedule[1] + 1, schedule[2])), schedule, "cosine decay")


def after_total(rng):
    """The step past total_steps: lr stays 0 (an unclamped cosine rises again)."""
    schedule = _pick(rng, SCHEDULES)
    warm, total = schedule[1:]
    step = min(MAX_STEP, total + int(rng.integers(1, 2 * (total - warm) + 2)))
    return _case(max(step, total), schedule, "after total_steps", exact=True)


def boundary(rng):
    """The step exactly on a boundary: 0, warmup_steps - 1, warmup_steps, warmup_steps + 1,
    total_steps - 1, total_steps or total_steps + 1."""
    schedule = _pick(rng, [s for s in SCHEDULES if s[1] >= 1])
    warm, total = schedule[1:]
    options = [0, warm - 1, warm, warm + 1, total - 1, total, total + 1]
    step = max(0, min(MAX_STEP, _pick(rng, options)))
    return _case(step, schedule, "on a boundary", exact=True)


def no_warmup(rng):
    """warmup_steps = 0: the cosine starts at step 0, at base_lr."""
    total = NO_WARMUP[2]
    step = _pick(rng, [0, int(rng.integers(0, total + 1)), int(rng.integers(0, total + 1)),
                       total + int(rng.integers(1, total + 1))])
    return _case(step, NO_WARMUP, "no warmup")


def longest_warmup(rng):
    """warmup_steps = total_steps - 1: one step of cosine, from base_lr straight to 0."""
    warm, total = LONGEST_WARMUP[1:]
    step = _pick(rng, [int(rng.integers(0, warm)), warm - 1, warm, total, total + 1])
    return _case(max(step, 0), LONGEST_WARMUP, "warmup_steps = total_steps - 1", exact=True)


def large_counts(rng):
    """A schedule of 10**6 steps and steps in the hundreds of thousands."""
    warm = LONG[1]
    return _case(int(rng.integers(warm // 2, MAX_STEP + 1)), LONG, "large step counts")


def small_lr(rng):
    """A typical learning rate, 3e-4, anywhere in a schedule of 10**5 steps."""
    total = SMALL_LR[2]
    return _case(int(rng.integers(0, total + total // 4 + 1)), SMALL_LR, "small learning rate")


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
