"""Typed readers for environment variables, in the Healthchecks style.

Every setting that an operator may change comes through one of these helpers,
so a typo such as ``DEBUG=ture`` or ``DATA_UPLOAD_MAX_MEMORY_SIZE=10MB`` stops
the process at start-up with one sentence naming the variable, instead of
being read as something else and surfacing later as a puzzling behaviour.

An unset variable and an empty one both mean "use the default": container
tools often pass ``NAME=`` for variables the operator left blank.
"""

import os

from django.core.exceptions import ImproperlyConfigured

_TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
_FALSE_WORDS = frozenset({"0", "false", "no", "off"})


class EnvError(ImproperlyConfigured):
    """An environment variable is missing or malformed; the message is one sentence."""


def _raw(name: str) -> str | None:
    value = os.environ.get(name, "").strip()
    return value or None


def env_str(name: str, default: str) -> str:
    """The variable as text, or ``default`` when it is unset or empty."""
    value = _raw(name)
    return default if value is None else value


def env_bool(name: str, default: bool) -> bool:
    """The variable as a boolean; accepts true/false, yes/no, on/off, 1/0 in any case."""
    value = _raw(name)
    if value is None:
        return default
    word = value.lower()
    if word in _TRUE_WORDS:
        return True
    if word in _FALSE_WORDS:
        return False
    raise EnvError(f"{name} must be true or false (or yes/no, on/off, 1/0), got {value!r}.")


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    """The variable as a whole number, optionally not below ``minimum``."""
    value = _raw(name)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise EnvError(f"{name} must be a whole number, got {value!r}.") from None
    if minimum is not None and number < minimum:
        raise EnvError(f"{name} must be at least {minimum}, got {number}.")
    return number


def env_list(name: str, default: list[str]) -> list[str]:
    """The variable as a comma-separated list; empty items are dropped.

    An item with whitespace inside is refused: it almost always means the list
    was separated by spaces instead of commas (``ALLOWED_HOSTS=a.example b.example``).
    """
    value = _raw(name)
    if value is None:
        return list(default)
    items = [item.strip() for item in value.split(",")]
    for item in items:
        if any(character.isspace() for character in item):
            raise EnvError(
                f"{name} must be a comma-separated list, but item {item!r} contains whitespace."
            )
    return [item for item in items if item]
