"""The address a request comes from, for rate limits and login lockouts.

X-Forwarded-For is written by whoever sends the request, so it is believed only as far as the
settings say proxies are trusted: with `TRUSTED_PROXIES=N` (N proxies of our own in front of the
site, each appending the address it received from), the client is the N-th address from the right;
with 0 (the default) the header is ignored and the socket's address (REMOTE_ADDR) is the client.
A made-up header then changes nothing: the proxy appends the real address after it.
"""
from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def client_address(request: HttpRequest) -> str:
    # "" when unknown (a request made in code, such as the test client's force_login): stored as NULL
    # by django-axes, where PostgreSQL's inet column refuses anything that is not an address.
    remote = request.META.get("REMOTE_ADDR", "")
    trusted = settings.TRUSTED_PROXIES
    if not trusted:
        return remote
    chain = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
    if not chain:
        return remote
    candidate = chain[-min(trusted, len(chain))]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:  # not an address: a broken or hostile header; fall back to the socket's
        return remote
