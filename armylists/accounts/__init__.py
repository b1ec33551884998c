"""Accounts: who may do what. Sign-up, login lockout (django-axes), API tokens, the client's address
behind trusted proxies, rate limits, request checks and password changes; their pages.
"""
