"""Request bodies: JSON with a size limit, and plain text (a list in the tournament text shape)."""
from __future__ import annotations

import json

from rest_framework.exceptions import ParseError
from rest_framework.parsers import BaseParser

from armylists.rules.errors import format_path
from armylists.rules.reading.plain_data import UnstorableData, load_json, text_problem
from armylists.rules.reading.roster import MAX_DOCUMENT_BYTES


def _read_limited(stream) -> bytes:
    body = stream.read(MAX_DOCUMENT_BYTES + 1) if stream is not None else b""
    if len(body) > MAX_DOCUMENT_BYTES:
        raise ParseError(f"The request body is larger than {MAX_DOCUMENT_BYTES // 1024} kB.")
    return body


class LimitedJSONParser(BaseParser):
    media_type = "application/json"

    def parse(self, stream, media_type=None, parser_context=None):
        body = _read_limited(stream)
        try:
            return load_json(body)
        except UnstorableData as exc:
            where = "" if not exc.path else f" at {format_path(exc.path)}"
            raise ParseError(f"The request body{where} {exc.reason}.") from None
        except UnicodeDecodeError:
            raise ParseError("The request body is not UTF-8 text.") from None
        except json.JSONDecodeError as exc:
            raise ParseError(f"The request body is not valid JSON: {exc.msg} at line {exc.lineno}, "
                             f"column {exc.colno}.") from None


class PlainTextParser(BaseParser):
    media_type = "text/plain"

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            text = _read_limited(stream).decode("utf-8")
        except UnicodeDecodeError:
            raise ParseError("The request body is not UTF-8 text.") from None
        problem = text_problem(text)
        if problem:
            raise ParseError(f"The request body {problem}.")
        return text


class RosterFile(bytes):
    """A request body that is a BattleScribe / New Recruit roster, kept as bytes for its reader."""


class RosterXMLParser(BaseParser):
    """A .ros (application/xml) body; read by armylists.importers.battlescribe.roster_files, which parses it safely."""
    media_type = "application/xml"

    def parse(self, stream, media_type=None, parser_context=None):
        return RosterFile(_read_limited(stream))


class RosterZipParser(RosterXMLParser):
    """A .rosz (a zipped .ros) body."""
    media_type = "application/zip"
