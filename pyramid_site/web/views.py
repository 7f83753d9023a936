"""The web page: one HTML shell; everything it shows comes from the public REST API."""

from __future__ import annotations

import engine
from django.utils.decorators import method_decorator
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.generic import TemplateView


def preset_sheets() -> dict[str, dict]:
    """Each preset's options and plain description, from which the rules pages are written."""
    return {name: rules.to_dict() | {"describe": rules.describe()} for name, rules in engine.PRESETS.items()}


@method_decorator(ensure_csrf_cookie, name="dispatch")
class PageView(TemplateView):
    template_name = "web/index.html"

    def get_context_data(self, **kwargs):
        return super().get_context_data(**kwargs) | {"presets": preset_sheets()}
