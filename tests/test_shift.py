"""The custom_vjp functions' outputs moved (``judge.worker.shift``): how far, and which entries
of a field count as moved."""

import math

import numpy as np

from judge.rules import custom_vjp_grads
from judge.worker import instrument, shift


def test_distance_is_a_power_of_two_far_above_the_case():
    for magnitudes, expected in (([], 2.0 ** 24), ([0.3, 1.0], 2.0 ** 24), ([3.0], 2.0 ** 26),
                                 ([1e10, math.inf, math.nan], 2.0 ** 58), ([1e38], 2.0 ** 100)):
        assert shift.distance(magnitudes) == expected


def test_the_factors_that_move_lie_outside_every_factor_that_does_not():
    still = shift.STILL
    drawn = {custom_vjp_grads.draw_factor() for _ in range(64)} | {1.0}
    assert all(0 <= f <= still for f in drawn)
    up, down = shift.factors(still, shift.distance([5.0]))
    assert np.float32(up) > still and np.float32(down) < 0


def test_an_entry_moves_where_either_side_changes_it_and_neither_gives_nan():
    base = np.array([1.0, 2.0, 3.0, -0.0], np.float32)
    plus = np.array([9.0, 2.0, np.nan, 0.0], np.float32)
    minus = np.array([1.0, -5.0, -7.0, 0.0], np.float32)
    assert shift.first_unmoved(base, plus, minus) == (2,)
    assert shift.first_unmoved(base[:2], plus[:2], minus[:2]) is None
    assert shift.first_unmoved(base[3:], plus[3:], minus[3:]) == (0,)  # -0.0 and 0.0 are one
    assert shift.first_unmoved(base, plus[:2], minus) == ()
    assert shift.first_unmoved(np.zeros((0,)), np.zeros((0,)), np.zeros((0,))) is None
    excused = np.zeros(base.shape, bool)
    excused[2] = True
    assert shift.first_unmoved(base, plus, minus, excused=excused) == (3,)
    excused[3] = True
    assert shift.first_unmoved(base, plus, minus, excused=excused) is None


def test_the_near_shift_is_a_power_of_two_below_the_case_and_below_the_far_moves():
    for magnitudes, expected in (([], 2.0 ** -4), ([0.3, 1.0], 2.0 ** -4), ([3.0], 2.0 ** -2),
                                 ([1e6, math.inf, math.nan], 2.0 ** 16), ([1e10], None)):
        assert shift.near(magnitudes) == expected
    up, down = shift.factors(shift.STILL, shift.near([5.0]))
    assert np.float32(up) - shift.STILL == 0.5 and np.float32(down) == -0.5
    assert shift.distance([1e8]) >= shift.FAR > shift.near([1e7])


def test_the_marker_keeps_the_output_at_near_shifts_and_replaces_it_at_far_moves():
    import jax
    import jax.numpy as jnp

    t = jnp.array([0.25, -3.0, 7.0], jnp.float32)

    def marker(factor):  # the output marker's arithmetic (``instrument.mark_moved``)
        still = jax.lax.clamp(0.0, factor, shift.STILL)
        outside = still - factor
        kept = jax.lax.select_n(jnp.abs(outside) >= shift.FAR, t, jnp.zeros_like(t))
        return kept - outside

    for factor, expected in ((1.0, t), (shift.STILL, t), (shift.STILL + 0.5, t + 0.5), (-0.5, t - 0.5),
                             (shift.STILL + 2.0 ** 24, jnp.full(3, 2.0 ** 24)),
                             (-(2.0 ** 24), jnp.full(3, -(2.0 ** 24)))):
        got = marker(jnp.float32(factor))
        assert np.array_equal(np.asarray(got), np.asarray(expected, np.float32)), factor


def test_the_rule_refuses_values_that_stay_or_were_not_measured():
    out = {"values": np.array([0.5, 1.0], np.float32)}
    far = ({"values": np.array([4.0, 4.0], np.float32)}, {"values": np.array([-4.0, 1.0], np.float32)})
    near = ({"values": np.array([0.75, 1.25], np.float32)}, {"values": np.array([0.25, 0.75], np.float32)})
    assert custom_vjp_grads._moved("values", out, far + near, None) is None
    still = ({"values": out["values"]}, {"values": out["values"]})
    assert custom_vjp_grads._moved("values", out, still + near, None).reason == "values_not_from_custom_vjp"
    assert custom_vjp_grads._moved("values", out, None, None).reason == "values_not_from_custom_vjp"
    assert custom_vjp_grads._moved("values", out, far, None).reason == "values_not_from_custom_vjp"
    # moved far only (a term of the output that is zero near the case): refused by the near shifts
    refused = custom_vjp_grads._moved("values", out, far + still, None)
    assert refused.reason == "values_not_from_custom_vjp" and "a little up" in refused.message


def test_an_entry_where_the_gradient_is_zero_may_stay():
    out = {"values": np.array([0.5, 2.0], np.float32)}
    moved = ({"values": np.array([4.0, 2.0], np.float32)}, {"values": np.array([-4.0, 2.0], np.float32)}) * 2
    clipped = np.array([1.0, 0.0], np.float32)  # the rule passes nothing at the second entry
    assert custom_vjp_grads._moved("values", out, moved, clipped) is None
    assert custom_vjp_grads._moved("values", out, moved, np.array([1.0, -0.5], np.float32)) \
        .reason == "values_not_from_custom_vjp"
    # a gradient of another shape excuses nothing
    assert custom_vjp_grads._moved("values", out, moved, np.zeros(3, np.float32)) \
        .reason == "values_not_from_custom_vjp"
