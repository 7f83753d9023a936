"""The web page: one HTML shell; everything it shows comes from the public REST API, in the words of its
catalogues (``catalogue``)."""

from __future__ import annotations

import engine
from django.conf import settings
from django.http import Http404
from django.utils import translation
from django.utils.decorators import method_decorator
from django.views.decorators.cache import cache_control
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.generic import TemplateView
from django.views.i18n import JSONCatalog


def preset_sheets() -> dict[str, dict]:
    """Each preset's options and plain description, from which the rules pages are written."""
    return {name: rules.to_dict() | {"describe": rules.describe()} for name, rules in engine.PRESETS.items()}


@method_decorator(ensure_csrf_cookie, name="dispatch")
class PageView(TemplateView):
    template_name = "web/index.html"

    def get_context_data(self, **kwargs):
        return super().get_context_data(**kwargs) | {"presets": preset_sheets(),
                                                     "languages": settings.LANGUAGES}


@cache_control(max_age=3600)
def catalogue(request, language: str):
    """The page's strings in one language, as JSON (`{"catalog": {...}, "formats": ..., "plural": ...}`): the
    page picks the language itself (a choice kept in the browser, the account's), so it names it in the URL."""
    if language not in dict(settings.LANGUAGES):
        raise Http404(language)
    with translation.override(language):
        return JSONCatalog.as_view(domain="djangojs", packages=["pyramid_site.web"])(request)
