from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from armylists.views import accounts, books, editor, lists

unit = "lists/<int:pk>/units/<str:unit_id>/"

urlpatterns = [
    path("", books.home, name="home"),
    path("books/<str:system>/<slug:book>/<str:version>/", books.book_detail, name="book-detail"),
    # Accounts: sign up is ours; log in and out, password change and reset are Django's.
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/", include("django.contrib.auth.urls")),
    # Lists
    path("lists/", lists.my_lists, name="my-lists"),
    path("lists/new/", lists.new_list, name="list-new"),
    path("lists/<int:pk>/", lists.list_detail, name="list-detail"),
    path("lists/<int:pk>/rename/", lists.rename_list, name="list-rename"),
    path("lists/<int:pk>/clone/", lists.clone_list, name="list-clone"),
    path("lists/<int:pk>/delete/", lists.delete_list, name="list-delete"),
    path("lists/<int:pk>/share/", lists.share_list, name="list-share"),
    path("lists/<int:pk>/download/<str:fmt>/", lists.download, name="list-download"),
    path("s/<str:token>/", lists.shared_detail, name="shared-list"),
    path("s/<str:token>/download/<str:fmt>/", lists.shared_download, name="shared-download"),
    # The editor and its edits
    path("lists/<int:pk>/edit/", editor.editor, name="list-edit"),
    path("lists/<int:pk>/settings/", editor.edit_settings, name="list-settings"),
    path("lists/<int:pk>/add-unit/", editor.add_unit, name="unit-add"),
    path(unit, editor.update_unit, name="unit-update"),
    path(unit + "remove/", editor.remove_unit, name="unit-remove"),
    path(unit + "duplicate/", editor.duplicate_unit, name="unit-duplicate"),
    path(unit + "move/", editor.move_unit, name="unit-move"),
    path(unit + "items/add/", editor.add_item, name="item-add"),
    path(unit + "items/remove/", editor.remove_item, name="item-remove"),
    # API
    path("api/v1/", include("armylists.api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("admin/", admin.site.urls),
]

handler404 = "armylists.api.errors.api_not_found"
