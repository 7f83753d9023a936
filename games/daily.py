"""How daily deals are committed to, without the database.

The commitment published before the day is ``SHA-256(deal text + "|" + salt)`` in hex; the salt is
revealed when the day is over, so anyone can check the deal was fixed in advance. (The deal itself
is the first winnable candidate of the day's proven deal sequence: ``services.sequences``.)
"""

from __future__ import annotations

import hashlib
import secrets


def new_salt() -> str:
    return secrets.token_hex(16)


def commitment(deal_text: str, salt: str) -> str:
    return hashlib.sha256(f"{deal_text}|{salt}".encode()).hexdigest()
