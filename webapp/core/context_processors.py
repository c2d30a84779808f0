"""Template context every page gets."""

from django.http import HttpRequest

PRODUCT_NAME = "gpu-whatif"


def product(request: HttpRequest) -> dict[str, str]:
    """The product name, so templates never spell it themselves."""
    return {"product_name": PRODUCT_NAME}
