import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "armylists.settings")
site = get_wsgi_application()

# The stateless validation endpoint skips the site's session, CSRF and message middleware (api/stateless.py).
from armylists.api.stateless import StatelessHandler, route_stateless  # noqa: E402  (needs the settings above)

application = route_stateless(site, StatelessHandler())
