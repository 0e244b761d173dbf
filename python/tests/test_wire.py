"""Lenient reading of received values whose JSON type is not shown (`Scalar`)."""

from decimal import Decimal

import pytest

from baas_runtime import Scalar
from baas_runtime.canonical import JsonNumber, JsonValue
from baas_runtime.wire import WireShapeError, scalar_of


def test_a_string_a_number_and_a_boolean_keep_their_text() -> None:
    s = scalar_of("0042", "x")
    assert s == "0042" and s is not None and not s.is_number and s.as_int() == 42
    n = scalar_of(JsonNumber("12.50"), "x")
    assert n == "12.50" and n is not None and n.is_number
    assert n.as_int() is None and n.as_decimal() == Decimal("12.50")
    b = scalar_of(True, "x")
    assert b == "true" and b is not None and b.as_int() is None
    assert scalar_of(None, "x") is None
    assert isinstance(scalar_of("a", "x"), Scalar)


def test_objects_and_arrays_are_another_shape() -> None:
    shapes: list[JsonValue] = [{}, [JsonNumber("1")]]
    for bad in shapes:
        with pytest.raises(WireShapeError):
            scalar_of(bad, "field")
