"""Accounts: sign-up, log-in for a token or a session, token revocation, who am I."""
