"""Fetch a URL from the internet as safely as a server must: https only, allow-listed hosts only, never
a private or loopback address, a timeout per request and a cap on the size.

    policy = Policy(hosts=("api.github.com", "codeload.github.com", "github.com"))
    body, final_url = fetch("https://api.github.com/repos/BSData/mordheim", policy)

Every check that can refuse is made before any connection: the scheme, then the host against the
allow-list, then every address the host resolves to (a private, loopback, link-local or reserved one
is refused). The connection is then made to the address that was checked (the host name is used only
for TLS), so a second DNS answer cannot move it elsewhere. Redirects are followed by hand, each hop
checked the same way. A URL is never logged or shown with its user, password or query (`shown`).
Standard library only: no Django here.
"""
from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
import time
import urllib.parse
from dataclasses import dataclass

MAX_REDIRECTS = 5
USER_AGENT = "armylists-game-data/1"


class FetchError(Exception):
    """A refusal or a failed request; str() is one sentence for people, naming the URL without secrets."""


@dataclass(frozen=True)
class Policy:
    hosts: tuple[str, ...]
    timeout: float = 30  # seconds, each connection and read
    max_bytes: int = 64 * 1024 * 1024
    # seconds for the whole of one fetch (every redirect, every read): a server sending a byte every few
    # seconds passes each read's timeout and would hold the worker for ever (issue 38 item 6)
    deadline: float = 300
    test_loopback: bool = False  # tests only: plain http to a loopback address (a literal one)


def shown(url: str) -> str:
    """The URL as it may be logged or shown: no user or password, no query, no fragment."""
    parts = urllib.parse.urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    try:
        port = parts.port
    except ValueError:
        port = None
    return urllib.parse.urlunsplit((parts.scheme, host + (f":{port}" if port else ""), parts.path, "", ""))


def resolve(host: str, port: int) -> list[str]:
    """Every address `host` resolves to (tests replace this: no test asks a real DNS server)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise FetchError(f"{host} cannot be resolved ({exc})") from None
    return [info[4][0] for info in infos]


def loopback_literal(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def checked_target(url: str, policy: Policy) -> tuple[str, str, int, str, str]:
    """(scheme, host, port, address to connect to, path with query) of an allowed URL, else FetchError.

    Decided before any connection; for a refused scheme or host, before any DNS question."""
    parts = urllib.parse.urlsplit(url)
    scheme, host = parts.scheme.lower(), (parts.hostname or "").lower()
    try:
        port = parts.port
    except ValueError:
        raise FetchError(f"{shown(url)}: the port is not a number; refused") from None
    plain_allowed = policy.test_loopback and loopback_literal(host)
    if scheme != "https" and not (scheme == "http" and plain_allowed):
        raise FetchError(f"{shown(url)} is not an https:// address; refused")
    if not host or host not in policy.hosts:
        raise FetchError(f"{shown(url)}: the host {host or '(none)'} is not on the allow-list "
                         f"({', '.join(policy.hosts)}); refused")
    port = port or (443 if scheme == "https" else 80)
    addresses = resolve(host, port)
    if not addresses:
        raise FetchError(f"{host} resolves to no address; refused")
    for address in addresses:
        ip = ipaddress.ip_address(address.split("%")[0])
        if not (ip.is_global or (plain_allowed and ip.is_loopback)):
            raise FetchError(f"{host} resolves to {ip}, a private, loopback or reserved address; refused")
    path = parts.path or "/"
    return scheme, host, port, addresses[0], path + (f"?{parts.query}" if parts.query else "")


class _PinnedHTTPS(http.client.HTTPSConnection):
    """HTTPS to the checked address, with the certificate checked for the host name."""

    def __init__(self, host: str, port: int, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout, context=ssl.create_default_context())
        self.address = address

    def connect(self) -> None:
        sock = socket.create_connection((self.address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)


class _PinnedHTTP(http.client.HTTPConnection):
    """Plain HTTP to the checked address: the tests' loopback server only."""

    def __init__(self, host: str, port: int, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self.address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self.address, self.port), self.timeout)


def fetch(url: str, policy: Policy, accept: str = "*/*") -> tuple[bytes, str]:
    """(body, the URL it came from after redirects) of a GET; FetchError on a refusal, an error status,
    a timeout, the whole fetch passing `policy.deadline`, a body over `policy.max_bytes`, more than
    MAX_REDIRECTS redirects or a redirect to another port (`_redirect`)."""
    ends = time.monotonic() + policy.deadline
    for _ in range(MAX_REDIRECTS + 1):
        scheme, host, port, address, path = checked_target(url, policy)
        connection_class = _PinnedHTTPS if scheme == "https" else _PinnedHTTP
        connection = connection_class(host, port, address, min(policy.timeout, _left(ends, url, policy)))
        try:
            connection.request("GET", path, headers={"User-Agent": USER_AGENT, "Accept": accept})
            response = connection.getresponse()
            if response.status in (301, 302, 303, 307, 308):
                location = response.getheader("Location") or ""
                response.close()
                if not location:
                    raise FetchError(f"{shown(url)} redirects nowhere")
                url = _redirect(url, urllib.parse.urljoin(url, location))
                continue
            if response.status == 404:
                raise NotFound(f"{shown(url)}: not found (404)")
            if response.status != 200:
                raise FetchError(f"{shown(url)} answered {response.status} {response.reason}")
            declared = response.getheader("Content-Length")
            if declared and declared.isdigit() and int(declared) > policy.max_bytes:
                raise FetchError(f"{shown(url)}: the download is {declared} bytes; at most {policy.max_bytes}")
            return _read_capped(response, url, policy, ends, connection), url
        except (OSError, http.client.HTTPException) as exc:
            raise FetchError(f"{shown(url)} cannot be fetched ({type(exc).__name__}: {exc})") from None
        finally:
            connection.close()
    raise FetchError(f"{shown(url)}: more than {MAX_REDIRECTS} redirects; refused")


class NotFound(FetchError):
    """The server answered 404."""


def _left(ends: float, url: str, policy: Policy) -> float:
    """Seconds left before the fetch's deadline; FetchError when none are."""
    left = ends - time.monotonic()
    if left <= 0:
        raise FetchError(f"{shown(url)}: the download took longer than {policy.deadline:g} s in all; stopped")
    return left


def _redirect(url: str, to: str) -> str:
    """`to`, when a redirect from `url` may go there: the same host and port, or (checked_target then
    checks the host against the allow-list) a host at its scheme's own port. An allowed host's other port
    is another service than the one allowed (issue 38 item 6)."""
    old, new = urllib.parse.urlsplit(url), urllib.parse.urlsplit(to)
    try:
        same = (old.hostname or "").lower() == (new.hostname or "").lower() and old.port == new.port
        default = new.port is None or new.port == {"https": 443, "http": 80}.get(new.scheme.lower())
    except ValueError:
        raise FetchError(f"{shown(url)} redirects to a port that is not a number; refused") from None
    if not same and not default:
        raise FetchError(f"{shown(url)} redirects to {shown(to)}, another port; refused")
    return to


def _read_capped(response: http.client.HTTPResponse, url: str, policy: Policy, ends: float, connection) -> bytes:
    """The body, read in pieces: a server's Content-Length may lie, and a slow one is stopped at the deadline."""
    chunks, size, cap = [], 0, policy.max_bytes
    while True:
        # Each read waits at most `timeout`; between reads the deadline is checked, so a slow server is
        # stopped at the deadline or one read after it.
        left = _left(ends, url, policy)
        if connection.sock is not None:
            connection.sock.settimeout(min(policy.timeout, left))
        chunk = response.read1(1 << 16)
        if not chunk:
            break
        size += len(chunk)
        if size > cap:
            raise FetchError(f"{shown(url)}: the download is larger than {cap} bytes; refused")
        chunks.append(chunk)
    return b"".join(chunks)
