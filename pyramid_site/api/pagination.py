"""Every list the API answers comes in pages the same way: ``?limit=&offset=`` in, and
``{"count", "next", "previous", "results"}`` out, ``next`` and ``previous`` being links to the
neighbouring pages (null at either end)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, inline_serializer
from rest_framework import serializers
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.response import Response

from .params import int_param

MAX_OFFSET = 10**9


class Pagination(LimitOffsetPagination):
    """DRF's limit/offset pages, with a 400 that says what was wrong instead of a silent default."""

    def __init__(self, *, default_limit: int = 50, max_limit: int = 200):
        self.default_limit, self.max_limit = default_limit, max_limit

    def get_limit(self, request) -> int:
        return int_param(request, self.limit_query_param, self.default_limit, 1, self.max_limit)

    def get_offset(self, request) -> int:
        return int_param(request, self.offset_query_param, 0, 0, MAX_OFFSET)


def paged(request, items, shape, *, default_limit: int = 50, max_limit: int = 200, decorate=None,
          **extra) -> Response:
    """One page of ``items`` (a queryset or a list), each shaped by ``shape``; ``decorate`` sees the
    page's raw items first (to fetch what only the shown rows need); ``extra`` fields join the body."""
    paginator = Pagination(default_limit=default_limit, max_limit=max_limit)
    page = paginator.paginate_queryset(items, request)
    if decorate is not None:
        decorate(page)
    response = paginator.get_paginated_response([shape(item) for item in page])
    response.data = extra | response.data
    return response


def page_parameters(*, default_limit: int = 50, max_limit: int = 200) -> list[OpenApiParameter]:
    return [OpenApiParameter("limit", int, description=f"rows in the page (1-{max_limit}, {default_limit})"),
            OpenApiParameter("offset", int, description="rows to skip before the page (0)")]


def _component_name(item) -> str:
    name = getattr(getattr(item, "Meta", None), "ref_name", None) or getattr(item, "component_name", None)
    if name is None:
        name = (item if isinstance(item, type) else type(item)).__name__.removesuffix("Output")
    return name


def page_schema(item, *, name: str | None = None, **extra: serializers.Field) -> serializers.Serializer:
    """The schema of a page of ``item`` (a serializer class, or a serializer instance): a component named
    ``<item's component>Page`` unless ``name`` says otherwise; ``extra`` fields of the list itself join it."""
    child = item() if isinstance(item, type) else item
    return inline_serializer(name=name or f"{_component_name(item)}Page", fields={
        **extra,
        "count": serializers.IntegerField(min_value=0, help_text="rows in the whole list"),
        "next": serializers.URLField(allow_null=True, help_text="the next page; null on the last"),
        "previous": serializers.URLField(allow_null=True, help_text="the page before; null on the first"),
        "results": serializers.ListField(child=child),
    })
