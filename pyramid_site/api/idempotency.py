"""Safe retries of creating requests: the ``Idempotency-Key`` request header (the IETF httpapi draft "The
Idempotency-Key HTTP Header Field"), optional on every operation whose view method is marked ``@idempotent``.

Sent again with the same key and the same request (method, path with its query, and JSON body, whatever its
spacing or key order), by the same caller (the account, or the client address for a caller with none), the first
answer is given again (its status, body and own headers such as ``Location``, with ``Idempotent-Replayed: true``)
and nothing is done again. The same key with another request is 422 ``idempotency_key_reused``. A retry sent
while the first is still being answered waits for it (on the key's row lock, up to
``PYRAMID_IDEMPOTENCY_WAIT_SECONDS``, then 409 ``idempotency_key_in_flight`` with ``Retry-After``). Only
successful answers are kept: a refusal keeps nothing, so a retry may succeed.

The key is claimed in a transaction opened around the view, the transaction the view's service then runs in
(its own ``transaction.atomic`` becomes a savepoint, its ``on_commit`` work waits for the key's commit): the work
and its key commit together, so no crash leaves work done without its key. A refused request's work stays as
the view left it; only its claim is let go.
"""

from __future__ import annotations

import functools
import hashlib
import json

import http_sf
from django.db import DatabaseError, transaction
from django.http.request import RawPostDataException
from django.utils.translation import gettext
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response

from pyramid_site.client import address_hash, client_address
from pyramid_site.errors import Code, DomainError
from pyramid_site.idempotency import services
from pyramid_site.idempotency.models import KEY_MAX

from .schema_headers import declare_headers

HEADER = "Idempotency-Key"
REPLAYED = "Idempotent-Replayed"
# the answer's own headers kept with it (the rest, such as X-Request-ID, belong to each request)
KEPT_HEADERS = ("Location",)
MARK = "idempotent"  # the attribute that marks a view method (read by the schema's hooks)
# the codes a request with a key may be answered besides its view's own
IDEMPOTENCY_CODES = (Code.BAD_IDEMPOTENCY_KEY, Code.IDEMPOTENCY_KEY_IN_FLIGHT, Code.IDEMPOTENCY_KEY_REUSED)


def idempotent(handler):
    """Mark a view method as taking ``Idempotency-Key`` (see the module's docstring)."""

    @functools.wraps(handler)
    def answer(view, request, *args, **kwargs):
        raw = request.headers.get(HEADER)
        if raw is None:
            return handler(view, request, *args, **kwargs)
        key, caller, fingerprint = _key(raw), _caller(request), _fingerprint(request)
        failure = None
        with transaction.atomic():
            record, new = services.key_claim(caller=caller, key=key, fingerprint=fingerprint)
            if not new:
                body = json.loads(record.body) if record.body else None
                return Response(body, status=record.status, headers={**record.headers, REPLAYED: "true"})
            try:
                response = handler(view, request, *args, **kwargs)
            except Exception as exc:  # noqa: BLE001 (raised again below, once the claim is let go)
                failure = exc
                _let_go(record)
            else:
                if 200 <= response.status_code < 300:
                    services.key_answer(
                        record=record,
                        status=response.status_code,
                        body=_body(response),
                        headers={name: response[name] for name in KEPT_HEADERS if name in response},
                    )
                else:
                    _let_go(record)
        if failure is not None:
            raise failure
        return response

    setattr(answer, MARK, True)
    return answer


def _key(raw: str) -> str:
    """The key: a Structured Field string as the draft writes it (``"8e03..."``), or the same text bare."""
    key = raw.strip()
    if key.startswith('"'):
        try:
            parsed = http_sf.parse(key.encode("latin-1"), tltype="item")
        except (http_sf.StructuredFieldError, UnicodeEncodeError):
            parsed = None
        value = parsed[0] if isinstance(parsed, tuple) else None  # an item: (its value, its parameters)
        key = value if isinstance(value, str) else ""
    if not key or len(key) > KEY_MAX or not all(" " <= char <= "~" for char in key):
        raise DomainError(
            Code.BAD_IDEMPOTENCY_KEY,
            gettext("Idempotency-Key must be 1 to %(most)s printable ASCII characters, such as a UUID")
            % {"most": KEY_MAX},
        )
    return key


def _caller(request) -> str:
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    # the raw address is never stored (as fair play keeps it): its salted hash
    return f"ip:{address_hash(client_address(request) or '-')}"


def _fingerprint(request) -> str:
    try:
        raw = request.body
    except RawPostDataException:  # read as a form already: the parsed data stands for it
        raw = json.dumps(request.data, default=str).encode()
    try:
        body = json.dumps(json.loads(raw), sort_keys=True, separators=(",", ":")).encode() if raw else b""
    except ValueError:  # not JSON: the view refuses it, but a key still names this body alone
        body = raw
    digest = hashlib.sha256(f"{request.method} {request.get_full_path()}\n".encode())
    digest.update(body)
    return digest.hexdigest()


def _body(response) -> str:
    return "" if response.data is None else JSONRenderer().render(response.data).decode()


def _let_go(record) -> None:
    try:
        with transaction.atomic():
            services.key_release(record=record)
    except DatabaseError:  # the view's error broke the transaction: all of it rolls back, the claim with it
        transaction.set_rollback(True)


def is_idempotent(handler) -> bool:
    """Whether a view method takes ``Idempotency-Key`` (is marked ``@idempotent``)."""
    return getattr(handler, MARK, False)


def _idempotent_operations(generator) -> set[tuple[str, str]]:
    marked = set()
    for path, _, method, callback in generator.endpoints or []:
        handler = getattr(getattr(callback, "cls", None), method.lower(), None)
        if is_idempotent(handler):
            marked.add((path, method.lower()))
    return marked


KEY_PARAMETER = {
    "name": HEADER,
    "in": "header",
    "required": False,
    "description": 'Makes a retry safe (docs/api.md, "Retries"): the same key with the same request answers '
    "the first answer again, without doing the work again; with another request it is 422 "
    "`idempotency_key_reused`, and while the first is still being answered (past a wait) 409 "
    "`idempotency_key_in_flight`. A new UUID for each new request; kept 24 hours by default, per "
    "account (per client address without one).",
    "schema": {"type": "string", "minLength": 1, "maxLength": KEY_MAX + 2, "pattern": "^[ -~]+$"},
    "example": '"8e03978e-40d5-43e8-bc93-6894a57f9324"',
}
REPLAYED_HEADER = {
    "schema": {"type": "string", "enum": ["true"]},
    "description": "this is the kept answer to an earlier request with the same `Idempotency-Key`",
}


def declare_idempotency_keys(result, generator, request, public):
    """drf-spectacular post-processing: the ``Idempotency-Key`` header on every idempotent operation and
    ``Idempotent-Replayed`` on its successful answers (its error codes are among the operation's generic ones:
    ``error_schema.generic_codes``)."""
    for path, method in _idempotent_operations(generator):
        operation = result["paths"].get(path, {}).get(method)
        if operation is None:
            continue
        operation.setdefault("parameters", []).append(dict(KEY_PARAMETER))
        for status, response in operation["responses"].items():
            if status.startswith("2"):
                declare_headers(result, response, {REPLAYED: REPLAYED_HEADER})
    return result
