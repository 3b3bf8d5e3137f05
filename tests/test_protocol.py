"""The worker/judge message format: exact round trips and refusal of malformed data."""

import base64
import json

import ml_dtypes
import numpy as np
import pytest

from judge.worker import protocol


@pytest.mark.parametrize("arr", [
    np.array([0.0, -0.0, np.nan, np.inf, -np.inf, 1e-45], np.float32),
    np.array([[1, 2], [3, 4]], np.int32),
    np.array([1.5, -0.0], ml_dtypes.bfloat16),
    np.array([65504, -0.0], np.float16),
    np.zeros((0, 3), np.float32),
])
def test_array_round_trip_is_bit_exact(arr):
    back = protocol.decode_array(protocol.encode_array(arr))
    assert back.dtype == arr.dtype and back.shape == arr.shape
    assert back.tobytes() == arr.tobytes()


def test_value_round_trip_through_json():
    value = {"values": np.arange(3, dtype=np.float32), "rest": [np.ones(1, np.float32), "text"]}
    msg = protocol.loads(protocol.dumps({"type": "x", "v": protocol.encode_value(value)}))
    back = protocol.decode_value(msg["v"])
    assert np.array_equal(back["values"], value["values"])
    assert back["rest"][1] == protocol.Other("str")


@pytest.mark.parametrize("bad", [
    {"kind": "array", "dtype": "object", "shape": [1], "data": ""},
    {"kind": "array", "dtype": "float32", "shape": [2], "data": base64.b64encode(b"1234").decode()},
    {"kind": "array", "dtype": "float32", "shape": [-1], "data": ""},
    {"kind": "array", "dtype": "float32", "shape": [1], "data": "not base64!"},
    {"kind": "pickle", "data": "gASV"},
    ["not", "an", "object"],
])
def test_malformed_values_are_refused(bad):
    with pytest.raises((protocol.ProtocolError, ValueError)):
        protocol.decode_value(bad)


def test_messages_must_be_typed_objects():
    with pytest.raises(protocol.ProtocolError):
        protocol.loads(b"[1, 2]")
    with pytest.raises(protocol.ProtocolError):
        protocol.loads(b"{not json")
    with pytest.raises(protocol.ProtocolError):
        protocol.loads(b"x" * (protocol.MAX_MESSAGE_BYTES + 1))


def test_nan_never_travels_as_a_bare_json_float():
    with pytest.raises(ValueError):
        protocol.dumps({"type": "x", "v": float("nan")})


@pytest.mark.parametrize("line", [b'{"type": "case", "index": 1}', b'{"type": "case", "x": NaN}',
                                  b'{"type": "case"} trailing', b"[1]"])
def test_a_line_is_read_as_json_reads_it_without_a_decoder_per_line(line):
    """The result channel's lines come as bytearrays: each is read as ``json.loads`` reads it
    (with one decoder kept for every line), NaN and the infinities refused."""
    for raw in (bytes(line), bytearray(line)):  # either way alike, for these
        try:
            expected = json.loads(raw, parse_constant=protocol._no_constant)
        except ValueError:
            expected = None
        if not isinstance(expected, dict):
            with pytest.raises(protocol.ProtocolError):
                protocol.loads(raw)
        else:
            assert protocol.loads(raw) == expected
