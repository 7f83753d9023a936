"""The schema's own address: ``/api/schema/`` answers YAML, or JSON with ``?format=json`` (or
``Accept: application/json``), as drf-spectacular documents. The API's views read no ``?format=`` at all (the
settings' ``URL_FORMAT_OVERRIDE`` is off); this view alone keeps it, and takes an unknown one as none."""

from __future__ import annotations

from types import SimpleNamespace

from drf_spectacular.views import SpectacularAPIView
from rest_framework.negotiation import DefaultContentNegotiation


class SchemaNegotiation(DefaultContentNegotiation):
    settings = SimpleNamespace(URL_FORMAT_OVERRIDE="format")

    def filter_renderers(self, renderers, format):
        return [renderer for renderer in renderers if renderer.format == format] or renderers


class SchemaView(SpectacularAPIView):
    content_negotiation_class = SchemaNegotiation
