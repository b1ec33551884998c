from django.contrib import admin
from django.urls import path

from armylists.views import books

urlpatterns = [
    path("", books.home, name="home"),
    path("books/<str:system>/<slug:book>/<str:version>/", books.book_detail, name="book-detail"),
    path("admin/", admin.site.urls),
]
