from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from armylists.views import books

urlpatterns = [
    path("", books.home, name="home"),
    path("books/<str:system>/<slug:book>/<str:version>/", books.book_detail, name="book-detail"),
    path("api/v1/", include("armylists.api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("admin/", admin.site.urls),
]

handler404 = "armylists.api.errors.api_not_found"
