"""Safe retries of creating requests: each ``Idempotency-Key`` a caller sent, and the first answer to it."""
