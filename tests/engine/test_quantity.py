"""Quantities parse as k8s.io/apimachinery/pkg/api/resource does.

Rows carried from apimachinery's quantity_test.go (TestQuantityParse,
its invalid list, TestParseQuantityString, TestQuantityRoundUp); the
expected values are upstream's decQuantity(mantissa, exponent, format).
"""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from engine.model.quantity import (
    BINARY_SI,
    DECIMAL_EXPONENT,
    DECIMAL_SI,
    QuantityError,
    parse_quantity,
)

MAX_ALLOWED = 2**63 - 1


def dec(mantissa: int, exponent: int) -> Fraction:
    return Fraction(mantissa) * Fraction(10) ** exponent


PARSE_ROWS = [
    # zeros
    ("0", dec(0, 0), DECIMAL_SI),
    ("0n", dec(0, 0), DECIMAL_SI),
    ("0m", dec(0, 0), DECIMAL_SI),
    ("0Ki", dec(0, 0), BINARY_SI),
    ("0G", dec(0, 0), DECIMAL_SI),
    ("0Ti", dec(0, 0), BINARY_SI),
    ("1", dec(1, 0), DECIMAL_SI),
    # binary suffixes
    ("1Ki", dec(1024, 0), BINARY_SI),
    ("8Ki", dec(8 * 1024, 0), BINARY_SI),
    ("7Mi", dec(7 * 1024**2, 0), BINARY_SI),
    ("6Gi", dec(6 * 1024**3, 0), BINARY_SI),
    ("5Ti", dec(5 * 1024**4, 0), BINARY_SI),
    ("4Pi", dec(4 * 1024**5, 0), BINARY_SI),
    ("3Ei", dec(3 * 1024**6, 0), BINARY_SI),
    ("100Ti", dec(100 * 1024**4, 0), BINARY_SI),
    # decimal suffixes
    ("5n", dec(5, -9), DECIMAL_SI),
    ("4u", dec(4, -6), DECIMAL_SI),
    ("3m", dec(3, -3), DECIMAL_SI),
    ("8k", dec(8, 3), DECIMAL_SI),
    ("50k", dec(5, 4), DECIMAL_SI),
    ("7M", dec(7, 6), DECIMAL_SI),
    ("6G", dec(6, 9), DECIMAL_SI),
    ("40T", dec(4, 13), DECIMAL_SI),
    ("2P", dec(2, 15), DECIMAL_SI),
    ("1E", dec(1, 18), DECIMAL_SI),
    # decimal exponents
    ("1E-3", dec(1, -3), DECIMAL_EXPONENT),
    ("1e3", dec(1, 3), DECIMAL_EXPONENT),
    ("1E6", dec(1, 6), DECIMAL_EXPONENT),
    ("1e14", dec(1, 14), DECIMAL_EXPONENT),
    ("100.035k", dec(100035, 0), DECIMAL_SI),
    # things that look like floating point
    ("0.001", dec(1, -3), DECIMAL_SI),
    ("0.0005k", dec(5, -1), DECIMAL_SI),
    ("0.50000", dec(5, -1), DECIMAL_SI),
    ("0.5e-2", dec(5, -3), DECIMAL_EXPONENT),
    ("10.035M", dec(10035, 3), DECIMAL_SI),
    ("1.2e3", dec(12, 2), DECIMAL_EXPONENT),
    ("1.3E+6", dec(13, 5), DECIMAL_EXPONENT),
    ("1.7E18", dec(17, 17), DECIMAL_EXPONENT),
    ("9.01", dec(901, -2), DECIMAL_SI),
    ("7.123456M", dec(7123456, 0), DECIMAL_SI),
    ("6.987654321G", dec(6987654321, 0), DECIMAL_SI),
    ("2.5P", dec(25, 14), DECIMAL_SI),
    ("1.01E", dec(101, 16), DECIMAL_SI),
    # things that saturate or round up to whole nanos
    ("3.001n", dec(4, -9), DECIMAL_SI),
    ("1.1E-9", dec(2, -9), DECIMAL_EXPONENT),
    ("0.0000000001", dec(1, -9), DECIMAL_SI),
    ("0.5e-9", dec(1, -9), DECIMAL_EXPONENT),
    ("0.9n", dec(1, -9), DECIMAL_SI),
    ("0.00000012345", dec(124, -9), DECIMAL_SI),
    ("9Ei", Fraction(MAX_ALLOWED), BINARY_SI),
    ("9223372036854775807Ki", Fraction(MAX_ALLOWED), BINARY_SI),
    ("12E", dec(12, 18), DECIMAL_SI),
    # fractional binary
    ("100.035Ki", dec(10243584, -2), BINARY_SI),
    ("0.5Mi", dec(512 * 1024, 0), BINARY_SI),
    ("0.05Gi", dec(536870912, -1), BINARY_SI),
    ("0.025Ti", dec(274877906944, -1), BINARY_SI),
    # "things written by trolls"
    ("0.000000000001Ki", dec(2, -9), DECIMAL_SI),
    (".001", dec(1, -3), DECIMAL_SI),
    (".0001k", dec(100, -3), DECIMAL_SI),
    ("1.", dec(1, 0), DECIMAL_SI),
    ("1.G", dec(1, 9), DECIMAL_SI),
    # the scanner lets the number be empty: upstream reads these as zero
    ("Ki", dec(0, 0), BINARY_SI),
    (".", dec(0, 0), DECIMAL_SI),
    # the everyday ones
    ("500m", dec(5, -1), DECIMAL_SI),
    ("64Gi", dec(64 * 1024**3, 0), BINARY_SI),
    ("100M", dec(1, 8), DECIMAL_SI),
    ("1.5", dec(15, -1), DECIMAL_SI),
]


@pytest.mark.parametrize(("text", "amount", "fmt"), PARSE_ROWS, ids=[r[0] for r in PARSE_ROWS])
def test_parse_matches_upstream(text: str, amount: Fraction, fmt: str) -> None:
    quantity = parse_quantity(text)
    assert quantity.amount == amount
    assert quantity.format == fmt


@pytest.mark.parametrize(("text", "amount", "fmt"), PARSE_ROWS, ids=[r[0] for r in PARSE_ROWS])
def test_sign_prefixes(text: str, amount: Fraction, fmt: str) -> None:
    assert parse_quantity("-" + text).amount == -amount
    assert parse_quantity("+" + text).amount == amount


INVALID = [
    "1.1.M",
    "1+1.0M",
    "0.1mi",
    "0.1am",
    "aoeu",
    ".5i",
    "1i",
    "-3.01i",
    "-3.01e-",
    "1e4294967297",  # exponent past int32
    " 1",
    "1 ",
    "",
    "2x",
    "1.2.3",
    "1 Gi",
    "1K",  # kilo is a lower-case k
    "1e",
]


@pytest.mark.parametrize("text", INVALID, ids=[repr(t) for t in INVALID])
def test_invalid_quantities_are_rejected(text: str) -> None:
    with pytest.raises(QuantityError, match=f"^{re.escape(repr(text))} is not a quantity$"):
        parse_quantity(text)


@pytest.mark.parametrize(
    ("value", "amount"),
    [
        (2, dec(2, 0)),
        (1.5, dec(15, -1)),
        (0.1, dec(1, -1)),
        (1e-10, dec(1, -9)),
        (1e16, dec(1, 16)),
    ],
    ids=["int", "float", "tenth", "tiny-float", "big-float"],
)
def test_json_numbers_read_as_their_text(value: float, amount: Fraction) -> None:
    assert parse_quantity(value).amount == amount


ROUND_ROWS = [
    # (text, Value(), MilliValue()) -- both round up, away from zero
    ("9.01", 10, 9010),
    ("-9.01", -10, -9010),
    ("1.5", 2, 1500),
    ("100m", 1, 100),
    ("0.0001", 1, 1),
    ("1n", 1, 1),
    ("-1n", -1, -1),
    ("1Ki", 1024, 1024000),
    ("64Gi", 68719476736, 68719476736000),
    ("2", 2, 2000),
    ("0", 0, 0),
]


@pytest.mark.parametrize(("text", "value", "milli"), ROUND_ROWS, ids=[r[0] for r in ROUND_ROWS])
def test_value_and_milli_value_round_up(text: str, value: int, milli: int) -> None:
    quantity = parse_quantity(text)
    assert quantity.value() == value
    assert quantity.milli_value() == milli


def test_nanos_are_whole() -> None:
    assert parse_quantity("3.001n").nanos == 4
    assert parse_quantity("250m").nanos == 250_000_000
