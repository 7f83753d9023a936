"""The API reads JSON bodies only, and bounds them before parsing: a body over
``PYRAMID_API_MAX_BODY_BYTES`` is refused unread (413), and one nested deeper than
``PYRAMID_API_MAX_JSON_DEPTH`` is refused before the decoder could recurse into Python's limit (400)."""

from __future__ import annotations

import json

from django.conf import settings
from django.utils.translation import gettext
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from pyramid_site.errors import Code, DomainError


def json_depth_exceeds(body: bytes, limit: int) -> bool:
    """Whether arrays and objects nest deeper than ``limit`` anywhere in ``body`` (brackets inside
    strings do not count)."""
    if body.count(b"[") + body.count(b"{") <= limit:
        return False  # the common case, decided without a scan
    depth, in_string, escaped = 0, False, False
    for byte in body:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            if depth > limit:
                return True
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return False


class BoundedJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        limit = settings.PYRAMID_API_MAX_BODY_BYTES
        body = stream.read(limit + 1) if stream is not None else b""
        if len(body) > limit:
            raise DomainError(Code.BODY_TOO_LARGE, gettext("the body is over %(limit)s bytes") % {"limit": limit})
        if json_depth_exceeds(body, settings.PYRAMID_API_MAX_JSON_DEPTH):
            raise ParseError(
                gettext("the JSON nests deeper than %(levels)s levels")
                % {"levels": settings.PYRAMID_API_MAX_JSON_DEPTH}
            )
        try:
            return json.loads(body.decode(self._encoding(parser_context)), parse_constant=_refuse_constant)
        except (ValueError, UnicodeDecodeError, RecursionError) as exc:
            raise ParseError(gettext("the body is not valid JSON: %(exc)s") % {"exc": exc}) from None

    @staticmethod
    def _encoding(parser_context) -> str:
        return (parser_context or {}).get("encoding") or settings.DEFAULT_CHARSET


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not JSON")
