"""The comparisons, as tables of cases."""

import numpy as np
import pytest

from judge.grade import compare
from judge.worker.protocol import Other

f32 = lambda *v: np.array(v, dtype=np.float32)  # noqa: E731
TOL = {"rtol": 1e-6, "atol": 1e-6, "signed_zero": False}


@pytest.mark.parametrize("got, expected, tol, ok", [
    (f32(1, 2), f32(1, 2), TOL, True),
    (f32(1, 2.0000005), f32(1, 2), TOL, True),
    (f32(1, 2.001), f32(1, 2), TOL, False),
    (f32(np.nan), f32(np.nan), TOL, True),             # NaN matches NaN
    (f32(np.nan), f32(1.0), TOL, False),
    (f32(1.0), f32(np.nan), TOL, False),
    (f32(np.inf), f32(np.inf), TOL, True),
    (f32(np.inf), f32(-np.inf), TOL, False),
    (f32(1e30), f32(np.inf), {"rtol": 1.0, "atol": 1.0}, False),  # huge tolerance never reaches inf
    (f32(-0.0), f32(0.0), TOL, True),                  # signed zero ignored by default
    (f32(-0.0), f32(0.0), {**TOL, "signed_zero": True}, False),
    (f32(0.0), f32(0.0), {**TOL, "signed_zero": True}, True),
])
def test_check_values(got, expected, tol, ok):
    assert (compare.check_values(got, expected, "values", tol) is None) is ok


@pytest.mark.parametrize("got, expected, tol", [
    (f32(1, -0.0, np.nan, np.inf), f32(1, -0.0, np.nan, np.inf), {**TOL, "signed_zero": True}),
    (np.float32(np.nan), np.float32(np.nan), {"rtol": 0.0, "atol": 0.0}),
    (np.arange(6, dtype=np.int32).reshape(2, 3), np.arange(6, dtype=np.int32).reshape(2, 3), {}),
])
def test_the_same_bits_agree_with_the_full_comparison(got, expected, tol):
    """Arrays of the same bytes are passed at once; the elementwise comparison agrees."""
    assert compare.check_values(got, expected, "values", tol) is None
    assert compare.close_mask(got, expected, tol.get("rtol", 0.0), tol.get("atol", 0.0),
                              tol.get("signed_zero", False)).all()


def test_the_same_bytes_of_another_shape_or_dtype_are_compared_in_full():
    got = np.zeros(2, np.float32)
    assert not compare._same_bits(got, np.zeros((1, 2), np.float32))
    assert not compare._same_bits(got, np.zeros(1, np.float64))  # 8 bytes both
    assert compare._same_bits(got, np.zeros(2, np.float32))


def test_value_mismatch_names_field_and_first_position():
    m = compare.check_values(f32(1, 5, 7), f32(1, 2, 3), "grads", TOL)
    assert m.reason == "wrong_value" and m.field == "grads"
    assert "2 of 3" in m.message and "[1]" in m.message
    assert m.positions[0] == ((1,), 5.0, 2.0)


def test_positions_are_the_entries_outside_the_tolerance():
    """The reports list these (the JSON report's ``differences``): an entry within the
    tolerance is not one of them, though it is not exactly the expected value."""
    m = compare.check_values(f32(1.0005, 2, 3.5, 4), f32(1, 2, 3, 4), "values", {"atol": 1e-3})
    assert [p[0] for p in m.positions] == [(2,)] and "1 of 4" in m.message
    big = compare.check_values(np.arange(50, dtype=np.float32), np.zeros(50, np.float32), "v", TOL)
    assert len(big.positions) == compare.MAX_POSITIONS and "49 of 50" in big.message


@pytest.mark.parametrize("output, reason", [
    ({"values": f32(1), "grads": f32(1)}, None),
    ([f32(1), f32(1)], "wrong_type"),
    (Other("str"), "wrong_type"),
    ({"values": f32(1)}, "wrong_keys"),
    ({"values": f32(1), "grads": f32(1), "extra": f32(1)}, "wrong_keys"),
    ({"values": f32(1), "grads": Other("float")}, "wrong_type"),
    ({"values": f32(1, 2), "grads": f32(1)}, "wrong_shape"),
    ({"values": np.array([1.0]), "grads": f32(1)}, "wrong_dtype"),
    ({"values": f32(1), "grads": f32(2)}, "wrong_value"),
])
def test_check_output_dict(output, reason):
    expected = {"values": f32(1), "grads": f32(1)}
    m = compare.check_output(output, expected, "dict", {"values": TOL, "grads": TOL})
    assert (m.reason if m else None) == reason


def test_check_output_array_kind():
    assert compare.check_output(f32(1), {"value": f32(1)}, "array", {"value": TOL}) is None
    assert compare.check_output({"value": f32(1)}, {"value": f32(1)}, "array",
                               {"value": TOL}).reason == "wrong_type"


def test_shape_checked_before_dtype():
    m = compare.check_field(np.zeros((2,), np.float64), f32(1), "values", TOL)
    assert m.reason == "wrong_shape"
