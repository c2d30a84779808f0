"""Kubernetes resource quantities, parsed exactly as upstream parses them.

Follows k8s.io/apimachinery/pkg/api/resource (quantity.go ParseQuantity and
parseQuantityString, suffix.go): an optional sign, digits, an optional
fraction, then one suffix: binary (Ki Mi Gi Ti Pi Ei), decimal (n u m "" k M
G T P E) or a decimal exponent (e3, E-2, e+6). The value is kept as an exact
fraction; like upstream, a non-zero magnitude is rounded up to a whole number
of nano units, and binary quantities are capped at 2^63-1. `value()` and
`milli_value()` round up (away from zero), like upstream Value/MilliValue.

Upstream quirks we keep on purpose: a number may be empty, so "Ki", "M" and
"." parse as 0, and "1." is 1. Exponents whose magnitude would not fit any
int64 resource value (beyond 10^±100) are refused instead of carried.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

BINARY_SI = "BinarySI"
DECIMAL_SI = "DecimalSI"
DECIMAL_EXPONENT = "DecimalExponent"

_BINARY_SUFFIXES = {"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}
_DECIMAL_SUFFIXES = {
    "n": -9,
    "u": -6,
    "m": -3,
    "": 0,
    "k": 3,
    "M": 6,
    "G": 9,
    "T": 12,
    "P": 15,
    "E": 18,
}
_MAX_INT32 = 2**31 - 1
_MAX_ALLOWED = 2**63 - 1  # upstream maxAllowed, applied to BinarySI
_NANO = Fraction(1, 10**9)
_EXPONENT_LIMIT = 100  # beyond this no quantity fits an int64 resource value

# parseQuantityString's scanner as one pattern: sign, digits, optional
# fraction, then suffix letters, an optional exponent sign and digits.
_QUANTITY = re.compile(r"([+-]?)(\d*)(?:\.(\d*))?([eEinumkKMGTP]*[-+]?\d*)")


class QuantityError(ValueError):
    """A string that is not a Kubernetes quantity."""


@dataclass(frozen=True, slots=True)
class Quantity:
    amount: Fraction  # exact value after upstream's nano round-up and cap
    format: str  # BinarySI, DecimalSI or DecimalExponent

    def scaled_value(self, scale: int) -> int:
        """ScaledValue: the amount in units of 10^scale, rounded away from zero."""
        scaled = self.amount / Fraction(10) ** scale
        magnitude = -((-abs(scaled.numerator)) // scaled.denominator)  # ceil of |x|
        return magnitude if scaled >= 0 else -magnitude

    def value(self) -> int:
        return self.scaled_value(0)

    def milli_value(self) -> int:
        return self.scaled_value(-3)

    @property
    def nanos(self) -> int:
        """The amount in units of 10^-9: always whole after parsing."""
        return int(self.amount * 10**9)

    @property
    def sign(self) -> int:
        return (self.amount > 0) - (self.amount < 0)


def _interpret_suffix(suffix: str) -> tuple[int, int, str] | None:
    """quantitySuffixer.interpret: (base, exponent, format), None if unknown."""
    if suffix in _DECIMAL_SUFFIXES:
        return 10, _DECIMAL_SUFFIXES[suffix], DECIMAL_SI
    if suffix in _BINARY_SUFFIXES:
        return 2, _BINARY_SUFFIXES[suffix], BINARY_SI
    if len(suffix) > 1 and suffix[0] in "eE":
        digits = suffix[1:]
        if not re.fullmatch(r"[+-]?\d+", digits):
            return None
        exponent = int(digits)
        if abs(exponent) > _MAX_INT32:  # upstream rejects exponents past int32
            return None
        return 10, exponent, DECIMAL_EXPONENT
    return None


def parse_quantity(value: str | int | float) -> Quantity:
    """resource.ParseQuantity. Numbers (from JSON/YAML) are read as their text."""
    if isinstance(value, bool):
        raise QuantityError(f"{value!r} is not a quantity")
    if isinstance(value, int | float):
        value = repr(value)
    return _parse(value)


@lru_cache(maxsize=4096)
def _parse(text: str) -> Quantity:
    bad = QuantityError(f"'{text}' is not a quantity")
    if not text:
        raise bad
    match = _QUANTITY.fullmatch(text)
    if match is None:
        raise bad
    sign, whole, fraction, suffix = (
        match.group(1),
        match.group(2),
        match.group(3) or "",
        match.group(4),
    )
    interpreted = _interpret_suffix(suffix)
    if interpreted is None:
        raise bad
    base, exponent, fmt = interpreted
    digits = int(whole + fraction or "0")
    if digits and abs(exponent) > _EXPONENT_LIMIT:
        if exponent > 0:
            raise QuantityError(f"'{text}' is too large")
        amount = _NANO  # upstream rounds any tiny non-zero amount up to 1n
    else:
        amount = Fraction(digits, 10 ** len(fraction)) * Fraction(base) ** exponent
    # Round a non-zero magnitude up to whole nanos; cap binary quantities.
    nanos = amount / _NANO
    if nanos.denominator != 1:
        amount = (nanos.numerator // nanos.denominator + 1) * _NANO
    if fmt == BINARY_SI:
        amount = min(amount, Fraction(_MAX_ALLOWED))
        if 0 < amount < 1:
            fmt = DECIMAL_SI
    return Quantity(-amount if sign == "-" else amount, fmt)
