"""Read BattleScribe data from wherever a user has it, safely: files, folders, archives, https URLs.

    documents = read_sources(["Mordheim.gst", "catalogues/", "repo.zip", "https://.../x.catz"])

Every input is untrusted. XML is parsed with defusedxml (no DTDs, so no entity expansion and no
external entities); a file and a download each have a size cap; archives are unpacked by the one
archive reader (armylists/rules/reading/archives.py: names that leave the archive, zip bombs, nesting, and one
budget of bytes and files for the whole run, nested archives included). Any problem is a
`BattleScribeInputError` naming the file and, where known, the element. Each file is parsed once and
read into plain data straight away (`Document`), its XML tree let go before the next file is parsed.
"""
from __future__ import annotations

import ssl
import urllib.parse
import urllib.request
from pathlib import Path, PurePosixPath
from xml.etree.ElementTree import Element, ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring

from armylists.importers.battlescribe.elements import BattleScribeInputError, collector_paused
from armylists.importers.battlescribe.plain import read_plain
from armylists.rules.reading.archives import ArchiveError, is_zip, unpack, unpack_budget

MAX_FILE_BYTES = 32 * 1024 * 1024  # the largest catalogue we know is under 2 MB
MAX_DOWNLOAD_BYTES = 64 * 1024 * 1024
DOWNLOAD_TIMEOUT = 60
# Elements nested at most this deep: the deepest file we know (a T9A 0.11 catalogue) is 21. The readers
# after the parser recurse, so a file nested thousands deep is refused here, by name, before any of them.
MAX_XML_DEPTH = 100
TLS_CONTEXT: ssl.SSLContext | None = None  # None: the system's trusted certificates (tests trust their own)
EXTENSIONS = (".gst", ".cat")
ZIPPED = (".gstz", ".catz")


class Document:
    """One game system or catalogue file: where it came from, and what it says as plain data (`plain`,
    plain.py's shape) or as its XML tree (`root`). read_sources reads each file into plain data as it is
    parsed and lets its tree go at once, so a run never holds every file's tree (a data set's trees take
    five times its text); read_sources(..., xml=True) keeps the trees instead, for the one reader that
    needs the XML itself (a roster's catalogue ids). `Document(source, root)` wraps a tree parsed
    elsewhere, read into plain data when first asked."""

    __slots__ = ("source", "_root", "_plain")

    def __init__(self, source: str, root: Element | None = None, plain: dict | None = None):
        self.source, self._root, self._plain = source, root, plain

    @property
    def root(self) -> Element:
        if self._root is None:
            raise ValueError(f"{self.source}: its XML tree was not kept (read_sources(..., xml=True) keeps it)")
        return self._root

    @property
    def plain(self) -> dict:
        if self._plain is None:
            self._plain = read_plain(self.source, self.root)
        return self._plain


def read_sources(sources: list[str], fetch=None, xml: bool = False) -> list[Document]:
    """Every .gst/.cat document the sources hold, parsed and read into plain data (`xml`: parsed only, each
    tree kept); `fetch(url) -> bytes` downloads (tests pass their own)."""
    with unpack_budget("run"), collector_paused():  # one budget for every archive of the run
        return _read_sources(sources, fetch, xml)


def _read_sources(sources: list[str], fetch, xml: bool) -> list[Document]:
    documents: list[Document] = []
    for source in sources:
        if source.startswith(("https://", "http://")):
            data = (fetch or download)(source)
            name = PurePosixPath(urllib.parse.urlparse(source).path).name or "download"
            documents.extend(_from_bytes(source, name, data, xml))
            continue
        path = Path(source)
        if path.is_dir():
            files = sorted(p for p in path.rglob("*") if p.suffix.lower() in EXTENSIONS + ZIPPED and p.is_file())
            if not files:
                raise BattleScribeInputError(source, "", "the folder holds no .gst, .cat, .gstz or .catz file")
            for p in files:
                documents.extend(_from_bytes(str(p), p.name, _read_file(p), xml))
        elif path.is_file():
            documents.extend(_from_bytes(source, path.name, _read_file(path), xml))
        else:
            raise BattleScribeInputError(source, "", "no such file or folder")
    return documents


class _HttpsRedirectsOnly(urllib.request.HTTPRedirectHandler):
    """Follow a redirect only to another https:// URL: urllib follows one to http:// (and ftp://), where
    anybody on the way may change what is downloaded."""

    def __init__(self, url: str) -> None:
        self.url = url

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        if urllib.parse.urlsplit(newurl).scheme.lower() != "https":
            raise BattleScribeInputError(self.url, "", f"redirects to {newurl[:200]}, which is not an https:// URL; "
                                                       f"refused (only https:// URLs are downloaded)")
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def open_https(url: str):
    """urllib's response for `url`, following redirects to https:// URLs only."""
    opener = urllib.request.build_opener(_HttpsRedirectsOnly(url), urllib.request.HTTPSHandler(context=TLS_CONTEXT))
    return opener.open(url, timeout=DOWNLOAD_TIMEOUT)  # noqa: S310 (https only)


def download(url: str) -> bytes:
    """The body of an https URL, at most MAX_DOWNLOAD_BYTES (read in pieces: a server's length may lie);
    redirects are followed to https:// URLs only."""
    if not url.lower().startswith("https://"):
        raise BattleScribeInputError(url, "", "only https:// URLs are downloaded")
    try:
        with open_https(url) as response:
            chunks, size = [], 0
            while chunk := response.read(1 << 16):
                size += len(chunk)
                if size > MAX_DOWNLOAD_BYTES:
                    raise BattleScribeInputError(url, "", f"the download is larger than {MAX_DOWNLOAD_BYTES} bytes")
                chunks.append(chunk)
    except OSError as exc:
        raise BattleScribeInputError(url, "", f"cannot be downloaded ({exc})") from None
    return b"".join(chunks)


def _read_file(path: Path) -> bytes:
    try:
        size = path.stat().st_size
        cap = MAX_DOWNLOAD_BYTES if path.suffix.lower() in (".zip",) + ZIPPED else MAX_FILE_BYTES
        if size > cap:
            raise BattleScribeInputError(str(path), "", f"is {size} bytes; at most {cap} are read")
        return path.read_bytes()
    except OSError as exc:
        raise BattleScribeInputError(str(path), "", f"cannot be read ({exc.strerror or exc})") from None


def _from_bytes(source: str, name: str, data: bytes, xml: bool = False) -> list[Document]:
    lower = name.lower()
    if is_zip(data) or lower.endswith((".zip",) + ZIPPED):
        return _from_archive(source, data, single=lower.endswith(ZIPPED), xml=xml)
    if not lower.endswith(EXTENSIONS) and not data.lstrip()[:1] == b"<":
        raise BattleScribeInputError(source, "", "is not a .gst, .cat, .gstz, .catz or .zip file")
    if len(data) > MAX_FILE_BYTES:
        raise BattleScribeInputError(source, "", f"is {len(data)} bytes; at most {MAX_FILE_BYTES} are read")
    return [_document(source, data, xml)]


def read_zipped(source: str, data: bytes) -> list[Document]:
    """The documents of one zipped catalogue (.gstz, .catz), with every archive check."""
    return _from_archive(source, data, single=True)


def _from_archive(source: str, data: bytes, single: bool, xml: bool = False) -> list[Document]:
    """The catalogues of a zip: a whole data repository, or one zipped catalogue (.gstz/.catz); the archive
    reader (armylists/rules/reading/archives.py) checks it within the run's budget, nested archives included."""
    pick = None if single else (lambda name: name.lower().endswith(EXTENSIONS + ZIPPED))
    documents = []
    try:
        for where, body in unpack(data, source, member_bytes=MAX_FILE_BYTES, pick=pick, kind="run"):
            documents.append(_document(where, body, xml))
    except ArchiveError as exc:
        raise BattleScribeInputError(exc.source, "", exc.message) from None
    if not documents:
        raise BattleScribeInputError(source, "", "the archive holds no .gst or .cat file")
    return documents


def _document(source: str, data: bytes, xml: bool) -> Document:
    """One file parsed (defusedxml): its tree kept (`xml`), or read into plain data and let go."""
    root = parse_xml(source, data)
    return Document(source, root) if xml else Document(source, plain=read_plain(source, root))


def parse_xml(source: str, data: bytes) -> Element:
    """The XML root; a DTD (where entity bombs and external entities live) is refused outright."""
    try:
        root = fromstring(data, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except DefusedXmlException as exc:
        raise BattleScribeInputError(source, "", f"refused: {exc}") from None
    except ParseError as exc:
        line, column = exc.position
        raise BattleScribeInputError(source, f"line {line}, column {column}", f"is not well-formed XML ({exc})") from None
    except ValueError as exc:
        raise BattleScribeInputError(source, "", f"is not XML ({exc})") from None
    except LookupError as exc:  # an XML declaration naming an encoding Python does not know ("TF-8")
        raise BattleScribeInputError(source, "", f"declares a text encoding that does not exist ({exc})") from None
    _check_depth(source, root)
    return root


def _check_depth(source: str, root: Element) -> None:
    """Refuse elements nested more than MAX_XML_DEPTH deep, walking without recursion."""
    stack = [(root, 1)]
    while stack:
        element, depth = stack.pop()
        if depth > MAX_XML_DEPTH:
            tag = element.tag.rpartition("}")[2]
            raise BattleScribeInputError(source, f"<{tag} id={element.get('id')!r}>" if element.get("id") else f"<{tag}>",
                                         f"elements nested more than {MAX_XML_DEPTH} deep; refused")
        stack.extend((child, depth + 1) for child in element)
