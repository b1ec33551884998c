"""The one route of the stateless handler (stateless.py): the validation endpoint, as the site routes it."""
from django.urls import path

from armylists.api.views import validate_view

urlpatterns = [path("api/v1/validate/", validate_view, name="api-validate")]
