#!/usr/bin/env python
"""Django's command-line utility for gpu-whatif."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "webapp.settings")
    from django.core.management import execute_from_command_line

    from webapp.env import EnvError

    try:
        execute_from_command_line(sys.argv)
    except EnvError as error:
        # A malformed or missing environment variable: the sentence says which
        # one and what it should be; a traceback would only bury it.
        sys.exit(f"Configuration error: {error}")


if __name__ == "__main__":
    main()
