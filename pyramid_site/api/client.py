"""The device id header as the schema describes it (what is kept of a client: ``pyramid_site.client``)."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter

from pyramid_site.client import DEVICE_HEADER

DEVICE_PARAMETER = OpenApiParameter(
    DEVICE_HEADER,
    OpenApiTypes.STR,
    location=OpenApiParameter.HEADER,
    required=False,
    description="the browser's own random id (16 to 64 of `A-Z a-z 0-9 - _`), kept with a ranked game for fair "
    "play; anything else is ignored",
)
