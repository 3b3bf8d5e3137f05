"""Case generator for ema_scan (used by `judge generate`).

Interface (see README, "The generator interface"):

* ``FAMILIES``: family name -> ``draw(rng)``, which returns one candidate case as
  ``{"input": {"x": (T, d) float32, "decay": float}, "note": str}``; ``rng`` is a
  ``numpy.random.Generator`` seeded from (seed, family, index), the only source of randomness.
* ``ALTERNATIVES``: name -> ``compute(inputs, probe)``: the moving average computed another
  legitimate way in NumPy. A candidate on which one of them disagrees with the reference beyond
  the tolerance depends on rounding and is rejected.

m_t = decay * m_{t-1} + (1 - decay) * x_t with m_{-1} = 0. The families vary the decay (0, a
half, typical values, close to 1), the signal (noise, constants, steps, alternating signs) and
the shape (T = 1, long sequences with T > 4 d, where a T x T weight matrix is above the spec's
bound on intermediates on the case itself, wide rows up to d = 8). Values are rounded to two or
three decimals so that the spec stays short to read.

This module is loaded into the judge process: it may import only NumPy, ml_dtypes and pure
standard-library modules, never JAX.
"""

import numpy as np

F32 = np.float32
DECAYS = [0.5, 0.8, 0.9, 0.95, 0.99, 0.3, 0.75, 0.6]


def _pick(rng, options):
    return options[int(rng.integers(len(options)))]


def _round(values, digits=2):
    return np.round(values, digits).astype(F32)


def _case(x, decay, note):
    T, d = x.shape
    return {"input": {"x": x, "decay": float(decay)},
            "note": f"{note}; T {T}, d {d}, decay {decay:g}"}


def noise(rng):
    """Gaussian rows, T from 2 to 16, d from 1 to 4, a typical decay."""
    T, d = int(rng.integers(2, 17)), int(rng.integers(1, 5))
    return _case(_round(rng.normal(size=(T, d))), _pick(rng, DECAYS), "noise")


def long_sequence(rng):
    """T from 33 to 64 with d of 1 or 2: T > 4 d, so a T x T weight matrix is above the bound
    on intermediates (4 * size(x)) on this very case."""
    T, d = int(rng.integers(33, 65)), _pick(rng, [1, 1, 2])
    x = _round(rng.normal(size=(T, d)) + rng.normal() * 2.0)
    return _case(x, _pick(rng, [0.9, 0.95, 0.8, 0.97]), "long sequence")


def near_one(rng):
    """decay from 0.99 to 0.999: the average moves slowly away from its zero start."""
    T, d = int(rng.integers(4, 25)), int(rng.integers(1, 4))
    x = _round(rng.normal(size=(T, d)) * 2.0 + 3.0)
    return _case(x, _pick(rng, [0.99, 0.995, 0.999, 0.98]), "decay close to 1")


def zero_decay(rng):
    """decay 0: the average is x itself."""
    T, d = int(rng.integers(1, 9)), int(rng.integers(1, 5))
    return _case(_round(rng.normal(size=(T, d)) * 3.0), 0.0, "decay 0")


def small_decay(rng):
    """decay from 0.05 to 0.3: the average follows x closely (swapping decay and 1 - decay is
    far off)."""
    T, d = int(rng.integers(2, 13)), int(rng.integers(1, 5))
    return _case(_round(rng.normal(size=(T, d))), _pick(rng, [0.05, 0.1, 0.2, 0.25, 0.3]),
                 "small decay")


def constant(rng):
    """Constant rows c: m_t = c (1 - decay^(t+1)), the bias of the zero start."""
    T, d = int(rng.integers(2, 21)), int(rng.integers(1, 4))
    c = _round(rng.uniform(-5.0, 5.0, size=d))
    return _case(np.tile(c, (T, 1)).astype(F32), _pick(rng, DECAYS), "constant signal")


def step(rng):
    """Zeros, then ones from a random row on: the average starts rising only at the step."""
    T, d = int(rng.integers(4, 21)), int(rng.integers(1, 4))
    x = np.zeros((T, d), F32)
    x[int(rng.integers(1, T)):] = F32(1)
    return _case(x, _pick(rng, DECAYS), "step")


def dyadic(rng):
    """decay 0.5 or 0.75 and small dyadic values: every step is exact in float32."""
    T, d = int(rng.integers(1, 9)), int(rng.integers(1, 4))
    x = (rng.integers(-8, 9, size=(T, d)) / 4).astype(F32)
    case = _case(x, _pick(rng, [0.5, 0.75, 0.25]), "dyadic, exact")
    case["exact"] = True
    return case


def single_row(rng):
    """T = 1: the answer is (1 - decay) x_0."""
    d = int(rng.integers(1, 9))
    return _case(_round(rng.normal(size=(1, d)) * 2.0), _pick(rng, DECAYS), "one row")


def wide_rows(rng):
    """d from 5 to 8 (the widest the dims allow), T from 2 to 10."""
    T, d = int(rng.integers(2, 11)), int(rng.integers(5, 9))
    return _case(_round(rng.normal(size=(T, d))), _pick(rng, DECAYS), "wide rows")


FAMILIES = {"noise": noise, "long_sequence": long_sequence, "near_one": near_one,
            "zero_decay": zero_decay, "small_decay": small_decay, "constant": constant,
            "step": step, "dyadic": dyadic, "single_row": single_row, "wide_rows": wide_rows}


def float64_recurrence(inputs, probe):
    """The recurrence in float64, rounded once."""
    x, a = np.asarray(inputs["x"], np.float64), float(inputs["decay"])
    m, out = np.zeros(x.shape[1]), []
    for row in x:
        m = a * m + (1.0 - a) * row
        out.append(m)
    return {"value": np.array(out).astype(F32)}


def float32_increment(inputs, probe):
    """In float32 as m + (1 - decay) (x_t - m), with 1 - decay rounded to float32 first."""
    x, a = np.asarray(inputs["x"], F32), F32(inputs["decay"])
    k = F32(1) - a
    m, out = np.zeros(x.shape[1], F32), []
    for row in x:
        m = (m + k * (row - m)).astype(F32)
        out.append(m)
    return {"value": np.array(out, F32).reshape(x.shape)}


def float64_weights(inputs, probe):
    """The closed form m_t = (1 - decay) sum_s decay^(t - s) x_s as a T x T matrix, float64."""
    x, a = np.asarray(inputs["x"], np.float64), float(inputs["decay"])
    t = np.arange(x.shape[0])
    lag = t[:, None] - t[None, :]
    weights = np.where(lag >= 0, (1.0 - a) * a ** np.maximum(lag, 0), 0.0)
    return {"value": (weights @ x).astype(F32)}


ALTERNATIVES = {"float64_recurrence": float64_recurrence, "float32_increment": float32_increment,
                "float64_weights": float64_weights}
