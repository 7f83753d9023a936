"""Who is at the other end of a ranked game, as far as fair play needs to know (docs/fair-play.md, "Fair play"): a
salted hash of the client address and the device id the web page keeps. Fair play links games of one deal played by
different accounts from one address or one browser (a scouting account); the raw address is never stored.

The address is the one the throttles and the solver budget count (``client_address``): the socket's, or behind
``DJANGO_PROXY_COUNT`` trusted proxies the one the nearest of them saw (DRF's ``get_ident``), so a header
sent by the client changes nothing; an IPv6 address by its /64, so a device rotating its private addresses
inside its block stays one address. The salt is ``PYRAMID_CLIENT_HASH_SALT`` (derived from the secret key
unless set), so a stored hash cannot be turned back into an address by hashing every address there is."""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import re
from dataclasses import dataclass

from django.conf import settings
from rest_framework.throttling import BaseThrottle

DEVICE_HEADER = "X-Device-ID"
_DEVICE_META = "HTTP_X_DEVICE_ID"
# the page's id: 16 random bytes in hex; any id of 16 to 64 letters, digits, '-' or '_' is kept
DEVICE_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")


@dataclass(slots=True, frozen=True)
class ClientMark:
    """What a ranked game keeps of its client: both may be empty (no address, no or a malformed device id)."""

    address_hash: str = ""
    device_id: str = ""


def client_address(request) -> str:
    """The client's address as the throttles count it (the socket's, or the one the nearest trusted proxy saw:
    DRF's ``get_ident`` with ``NUM_PROXIES``); an IPv6 address by its /64, the block one subscriber is given."""
    ident = BaseThrottle().get_ident(request)
    try:
        address = ipaddress.ip_address(ident)
    except ValueError:
        return ident
    if address.version == 6:
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


def address_hash(address: str) -> str:
    if not address:
        return ""
    return hmac.new(settings.PYRAMID_CLIENT_HASH_SALT.encode(), address.strip().encode(), hashlib.sha256).hexdigest()


def valid_device_id(value) -> str:
    """The header's value when it is a well-formed id, else "" (never an error: the page may be old)."""
    return value if isinstance(value, str) and DEVICE_ID.fullmatch(value) else ""


def client_mark(request) -> ClientMark:
    """The request's :class:`ClientMark`."""
    return ClientMark(
        address_hash=address_hash(client_address(request) or ""),
        device_id=valid_device_id(request.META.get(_DEVICE_META)),
    )
