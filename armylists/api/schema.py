"""What the OpenAPI schema says that no view states: the answers of the HTTP server in front of the API.

gunicorn answers a request line (method, path and query) longer than its limit (4094 bytes) with 414 URI Too
Long before Django sees it, on any operation; the schema documents it so a client (and schemathesis in
`.ci/run`'s api-contract stage, which generated such a query once) knows it may come. It is the server's
page, not the API's error shape, so it carries no content schema.
"""
from __future__ import annotations

SERVER_RESPONSES = {
    "414": {"description": "The request line is longer than the HTTP server accepts (gunicorn: 4094 bytes); "
                           "answered by the server itself, not in the API's error shape."},
}


def server_responses(result: dict, generator, request, public) -> dict:
    """drf-spectacular postprocessing hook: SERVER_RESPONSES added to every operation."""
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            if isinstance(operation, dict) and isinstance(operation.get("responses"), dict):
                for code, response in SERVER_RESPONSES.items():
                    operation["responses"].setdefault(code, dict(response))
    return result
