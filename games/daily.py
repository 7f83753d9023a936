"""How daily deals are picked and committed to, without the database.

The deal number of a day is ``HMAC-SHA256(secret, "pyramid-daily|DATE|PRESET|ATTEMPT")`` read as a
64-bit big-endian number: without the server's secret nobody can compute a future deal. The
commitment published before the day is ``SHA-256(deal text + "|" + salt)`` in hex; the salt is
revealed when the day is over, so anyone can check the deal was fixed in advance.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import secrets


def daily_number(secret: str, date: dt.date, preset: str, attempt: int) -> int:
    message = f"pyramid-daily|{date.isoformat()}|{preset}|{attempt}".encode()
    digest = hmac.new(secret.encode(), message, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big")


def new_salt() -> str:
    return secrets.token_hex(16)


def commitment(deal_text: str, salt: str) -> str:
    return hashlib.sha256(f"{deal_text}|{salt}".encode()).hexdigest()


def utc_today() -> dt.date:
    return dt.datetime.now(dt.timezone.utc).date()
