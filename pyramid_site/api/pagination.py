"""Every list the API answers comes in pages the same way: ``?limit=`` in, and
``{"count", "next", "previous", "results"}`` out, ``next`` and ``previous`` being links to the
neighbouring pages (null at either end).

Lists that stay put page by ``?offset=`` (rows to skip). Lists that grow at the front while they are read
(my games, the failed tasks, the fair-play flags and voids, a tournament's standings) page by ``?cursor=``
instead: a page holds the rows after the last row of the page before it, by a unique key of the list's own
order (``started_at`` and then the id, say), so a row added at the front between two reads shifts nothing.
The cursor is opaque and signed: one this list did not give is 400 ``bad_parameter``. Such a list still
answers ``?offset=`` for one version (``OFFSET_REMOVED_IN``), with a ``Deprecation`` header.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.core import signing
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, inline_serializer
from rest_framework import serializers
from rest_framework.pagination import CursorPagination as DrfCursorPagination
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.response import Response
from rest_framework.utils.urls import remove_query_param, replace_query_param

from pyramid_site.errors import Code, DomainError
from pyramid_site.keyset import reversed_order, rows_beyond

from .params import int_param
from .schema_headers import declare_headers

MAX_OFFSET = 10**9
# the offset pages of the cursor lists: deprecated since (RFC 9745's Deprecation: @unix-time), and the API version
# that removes them (docs/api.md, "Lists come in pages"; docs/api-changelog.md)
OFFSET_DEPRECATED_AT = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)
OFFSET_REMOVED_IN = "4.0.0"
# where it is said: the API's docs page, which marks `offset` deprecated with the version that removes it
OFFSET_DEPRECATION_LINK = '</api/docs/>; rel="deprecation"; type="text/html"'


class Pagination(LimitOffsetPagination):
    """DRF's limit/offset pages, with a 400 that says what was wrong instead of a silent default."""

    def __init__(self, *, default_limit: int = 50, max_limit: int = 200):
        self.default_limit, self.max_limit = default_limit, max_limit

    def get_limit(self, request) -> int:
        return int_param(request, self.limit_query_param, self.default_limit, 1, self.max_limit)

    def get_offset(self, request) -> int:
        return int_param(request, self.offset_query_param, 0, 0, MAX_OFFSET)


def paged(request, items, shape, *, default_limit: int = 50, max_limit: int = 200, decorate=None, **extra) -> Response:
    """One page of ``items`` (a queryset or a list), each shaped by ``shape``; ``decorate`` sees the
    page's raw items first (to fetch what only the shown rows need); ``extra`` fields join the body."""
    paginator = Pagination(default_limit=default_limit, max_limit=max_limit)
    page = paginator.paginate_queryset(items, request)
    if decorate is not None:
        decorate(page)
    response = paginator.get_paginated_response([shape(item) for item in page])
    response.data = extra | response.data
    return response


@dataclass(frozen=True, slots=True)
class KeyCursor:
    """Where a page starts: after (or, ``reverse``, before) the row whose key is ``position``; ``inclusive`` takes
    that row too (the page before an empty page at the end)."""

    position: tuple
    reverse: bool = False
    inclusive: bool = False


def _wire(value):
    return value.isoformat() if isinstance(value, dt.datetime) else value


class CursorPagination(DrfCursorPagination):
    """DRF's cursor pages over a unique key of several columns. DRF's own filters on the first column alone and
    skips the rest of a tie by an offset (which rows added at the front move); here a page is the ``limit`` rows
    past the cursor's position by the whole key. The cursor is signed and salted with the list's path: another
    list's, or one written by hand, is 400 ``bad_parameter``."""

    def __init__(self, *, key: list[str], default_limit: int = 50, max_limit: int = 200):
        self.key, self.default_limit, self.max_limit = key, default_limit, max_limit
        self.url, self.salt = "", ""
        self.at: KeyCursor | None = None
        self.shown: list = []

    def read_cursor(self, request) -> KeyCursor | None:
        encoded = request.query_params.get(self.cursor_query_param)
        if encoded is None or encoded == "":
            return None
        try:
            payload = signing.loads(encoded, salt=self.salt)
            cursor = KeyCursor(tuple(payload["p"]), bool(payload.get("r")), bool(payload.get("i")))
        except (signing.BadSignature, KeyError, TypeError, ValueError):
            cursor = None
        if cursor is None or len(cursor.position) != len(self.key):
            raise DomainError(
                Code.BAD_PARAMETER,
                gettext(
                    "cursor is not one this list gave: take the first page without it, then follow next and previous"
                ),
            )
        return cursor

    def link(self, cursor: KeyCursor) -> str:
        payload: dict = {"p": [_wire(value) for value in cursor.position]}
        if cursor.reverse:
            payload["r"] = 1
        if cursor.inclusive:
            payload["i"] = 1
        return replace_query_param(
            self.url, self.cursor_query_param, signing.dumps(payload, salt=self.salt, compress=True)
        )

    def _position(self, row) -> tuple:
        names = [column.lstrip("-") for column in self.key]
        return tuple(row[name] for name in names) if isinstance(row, dict) else tuple(getattr(row, n) for n in names)

    def paginate_queryset(self, queryset, request, view=None):
        self.request, self.url, self.salt = request, request.build_absolute_uri(), f"pyramid.cursor:{request.path}"
        self.page_size = int_param(request, "limit", self.default_limit, 1, self.max_limit)
        self.at = cursor = self.read_cursor(request)
        backwards = cursor is not None and cursor.reverse
        order = reversed_order(self.key) if backwards else self.key
        if cursor is not None:
            queryset = queryset.filter(rows_beyond(order, cursor.position, inclusive=cursor.inclusive))
        rows = list(queryset.order_by(*order)[: self.page_size + 1])
        self.shown, more = rows[: self.page_size], len(rows) > self.page_size
        if backwards:
            self.shown.reverse()
            self.has_next, self.has_previous = True, more
        else:
            self.has_next, self.has_previous = more, cursor is not None
        self.page = self.shown
        return self.shown

    def get_next_link(self) -> str | None:
        if not self.has_next:
            return None
        if not self.shown:  # nothing before a backward cursor: the list from its start
            return remove_query_param(self.url, self.cursor_query_param)
        return self.link(KeyCursor(self._position(self.shown[-1])))

    def get_previous_link(self) -> str | None:
        if not self.has_previous:
            return None
        if not self.shown and self.at is not None:  # past the end (its last rows went): the page ending at the cursor
            return self.link(KeyCursor(self.at.position, reverse=True, inclusive=True))
        return self.link(KeyCursor(self._position(self.shown[0]), reverse=True))


def cursor_paged(
    request,
    items,
    shape,
    *,
    key: list[str],
    default_limit: int = 50,
    max_limit: int = 200,
    decorate=None,
    offset_items=None,
    **extra,
) -> Response:
    """One page of the queryset ``items`` by cursor, in the order ``key`` (order_by names, each a column or an
    annotation of ``items``, unique as a whole), ``count`` included as ``paged`` has it. A request with ``offset``
    is answered as ``paged`` answers it (from ``offset_items`` when given, undecorated then), with a
    ``Deprecation`` header, until ``OFFSET_REMOVED_IN``."""
    if request.query_params.get("offset") not in (None, ""):
        if request.query_params.get("cursor") not in (None, ""):
            raise DomainError(Code.BAD_PARAMETER, gettext("send cursor or offset, not both"))
        response = paged(
            request,
            items.order_by(*key) if offset_items is None else offset_items,
            shape,
            default_limit=default_limit,
            max_limit=max_limit,
            decorate=decorate if offset_items is None else None,
            **extra,
        )
        response["Deprecation"] = f"@{int(OFFSET_DEPRECATED_AT.timestamp())}"
        response["Link"] = OFFSET_DEPRECATION_LINK
        return response
    paginator = CursorPagination(key=key, default_limit=default_limit, max_limit=max_limit)
    page = paginator.paginate_queryset(items, request)
    if decorate is not None:
        decorate(page)
    response = paginator.get_paginated_response([shape(item) for item in page])
    response.data = extra | {"count": items.count()} | response.data
    return response


def page_parameters(*, default_limit: int = 50, max_limit: int = 200) -> list[OpenApiParameter]:
    return [
        OpenApiParameter("limit", int, description=f"rows in the page (1-{max_limit}, {default_limit})"),
        OpenApiParameter("offset", int, description="rows to skip before the page (0)"),
    ]


def cursor_page_parameters(*, default_limit: int = 50, max_limit: int = 200) -> list[OpenApiParameter]:
    """The parameters of a list paged by cursor: ``cursor`` and ``limit``, and the deprecated ``offset``."""
    return [
        OpenApiParameter(
            "cursor",
            str,
            description="where the page starts: only as a `next` or `previous` "
            "link of this list gives it (opaque; the first page without)",
        ),
        OpenApiParameter("limit", int, description=f"rows in the page (1-{max_limit}, {default_limit})"),
        OpenApiParameter(
            "offset",
            int,
            deprecated=True,
            description=f"deprecated (removed in {OFFSET_REMOVED_IN}): rows to skip before the page; "
            "answered with a `Deprecation` header and links that page by offset too. "
            "Rows added at the front between two reads shift the pages: follow `next`",
        ),
    ]


def _component_name(item) -> str:
    name = getattr(getattr(item, "Meta", None), "ref_name", None) or getattr(item, "component_name", None)
    if name is None:
        name = (item if isinstance(item, type) else type(item)).__name__.removesuffix("Output")
    return name


def page_schema(item, *, name: str | None = None, **extra: serializers.Field) -> serializers.Serializer:
    """The schema of a page of ``item`` (a serializer class, or a serializer instance): a component named
    ``<item's component>Page`` unless ``name`` says otherwise; ``extra`` fields of the list itself join it."""
    child = item() if isinstance(item, type) else item
    return inline_serializer(
        name=name or f"{_component_name(item)}Page",
        fields={
            **extra,
            "count": serializers.IntegerField(min_value=0, help_text="rows in the whole list"),
            "next": serializers.URLField(allow_null=True, help_text="the next page; null on the last"),
            "previous": serializers.URLField(allow_null=True, help_text="the page before; null on the first"),
            "results": serializers.ListField(child=child),
        },
    )


# what an offset page of a cursor list adds to its answer, as OpenAPI declares a response's headers
OFFSET_DEPRECATION_HEADERS = {
    "Deprecation": {
        "schema": {"type": "string", "example": "@1796083200"},
        "description": f"only with `offset`: RFC 9745's date (since when `offset` is deprecated here; "
        f"removed in {OFFSET_REMOVED_IN})",
    },
    "Link": {"schema": {"type": "string"}, "description": 'only with `offset`: `</api/docs/>; rel="deprecation"`'},
}


def declare_offset_deprecation(result, generator, request, public):
    """drf-spectacular post-processing: the headers of an offset page (``OFFSET_DEPRECATION_HEADERS``) on the 200
    of every operation whose ``offset`` is deprecated."""
    for item in result["paths"].values():
        for operation in item.values():
            if not any(p.get("name") == "offset" and p.get("deprecated") for p in operation.get("parameters", [])):
                continue
            answer = operation.get("responses", {}).get("200")
            if answer is not None:
                declare_headers(result, answer, OFFSET_DEPRECATION_HEADERS)
    return result
