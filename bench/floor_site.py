"""The API floor: the barest DRF endpoint that reads a list document, for bench/floors.py to compare with.

One module is the whole Django project (settings, URLs, view, WSGI entry), served by the same gunicorn
as the site: `gunicorn floor_site:application` from this folder. The endpoint parses the posted JSON
with DRF's own parser, walks the units and sums them (the document carries no points, so it sums the
models each unit has, the same walk a points total needs) and answers a small JSON object. No
middleware, no authentication, no throttle, no database: what any DRF endpoint costs at least.
"""
from __future__ import annotations

import os

SECRET_KEY = "floor-not-secret"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
INSTALLED_APPS = ["django.contrib.contenttypes", "django.contrib.auth", "rest_framework"]
MIDDLEWARE: list[str] = []
ROOT_URLCONF = "floor_site"
DATABASES: dict = {}
USE_TZ = True
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "UNAUTHENTICATED_USER": None,
}


def _urls():
    from django.urls import path
    from rest_framework.response import Response
    from rest_framework.views import APIView

    class SumView(APIView):
        def post(self, request):
            units = request.data["units"]
            return Response({"units": len(units), "models": sum(u.get("size", 1) for u in units)})

    return [path("sum/", SumView.as_view())]


def __getattr__(name: str):
    # The URL patterns are made when Django asks for them: settings must not import DRF's views.
    if name == "urlpatterns":
        return _urls()
    raise AttributeError(name)


_handler = None


def application(environ, start_response):
    global _handler
    if _handler is None:
        os.environ["DJANGO_SETTINGS_MODULE"] = "floor_site"
        from django.core.wsgi import get_wsgi_application
        _handler = get_wsgi_application()
    return _handler(environ, start_response)
