"""Parts of the OpenAPI schema that every API module shares."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse

ERROR = OpenApiResponse(OpenApiTypes.OBJECT, description='{"code": "...", "message": "..."}')
