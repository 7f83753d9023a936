"""The schema's own address: ``/api/schema/`` answers YAML, or JSON with ``?format=json`` (or
``Accept: application/json``), as drf-spectacular documents. The API's views read no ``?format=`` at all (the
settings' ``URL_FORMAT_OVERRIDE`` is off); this view alone keeps it, and takes an unknown one as none. A client
that accepts none of the schema's types (``Accept: text/html``) gets it in JSON rather than a 406 in YAML."""

from __future__ import annotations

from types import SimpleNamespace

from drf_spectacular.views import SpectacularAPIView
from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation


class SchemaNegotiation(DefaultContentNegotiation):
    settings = SimpleNamespace(URL_FORMAT_OVERRIDE="format")

    def filter_renderers(self, renderers, format):
        return [renderer for renderer in renderers if renderer.format == format] or renderers

    def select_renderer(self, request, renderers, format_suffix=None):
        try:
            return super().select_renderer(request, renderers, format_suffix)
        except NotAcceptable:
            json = next(renderer for renderer in renderers if renderer.media_type == "application/json")
            return json, json.media_type


class SchemaView(SpectacularAPIView):
    content_negotiation_class = SchemaNegotiation
