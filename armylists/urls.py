from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from armylists.accounts import token_views as tokens
from armylists.accounts import views as accounts
from armylists.campaigns import league_pages as league
from armylists.campaigns import pages as campaigns
from armylists.editor import book_pages as books
from armylists.editor import history_pages as history
from armylists.editor import list_pages as lists
from armylists.editor import views as editor
from armylists.events import team_views as event_teams
from armylists.events import views as events
from armylists.gamedata import views as game_data
from armylists.ops import health
from armylists.listfiles.views import import_list_view

unit = "lists/<int:pk>/units/<str:unit_id>/"

urlpatterns = [
    path("", books.home, name="home"),
    path("healthz", health.health, name="health"),  # for load balancers (docs/deploy.md)
    path("books/<str:system>/<slug:book>/<str:version>/", books.book_detail, name="book-detail"),
    # Accounts: sign up is ours; log in and out, password change and reset are Django's.
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/tokens/", tokens.tokens, name="tokens"),
    path("accounts/tokens/<str:key>/revoke/", tokens.token_revoke, name="token-revoke"),
    path("accounts/", include("django.contrib.auth.urls")),
    # Lists
    path("lists/", lists.my_lists, name="my-lists"),
    path("lists/new/", lists.new_list, name="list-new"),
    path("lists/import/", import_list_view, name="list-import"),  # issue 17: a list from a file or pasted text
    path("lists/<int:pk>/", lists.list_detail, name="list-detail"),
    path("lists/<int:pk>/rename/", lists.rename_list, name="list-rename"),
    path("lists/<int:pk>/clone/", lists.clone_list, name="list-clone"),
    path("lists/<int:pk>/delete/", lists.delete_list, name="list-delete"),
    path("lists/<int:pk>/share/", lists.share_list, name="list-share"),
    path("lists/<int:pk>/campaign/", campaigns.campaign, name="list-campaign"),  # issue 41: a warband's battles
    path("lists/<int:pk>/campaign/undo/", campaigns.undo, name="list-campaign-undo"),
    path("campaigns/", league.campaign_list, name="campaign-list"),  # issue 41 item 5: campaigns of players
    path("campaigns/join/", league.campaign_join, name="campaign-join"),
    path("campaigns/<int:pk>/", league.campaign_detail, name="campaign-detail"),
    path("campaigns/<int:pk>/warbands/<int:wid>/battle/", league.battle_new, name="campaign-battle-new"),
    path("campaigns/<int:pk>/battles/<int:bid>/confirm/", league.battle_confirm, name="campaign-battle-confirm"),
    path("campaigns/<int:pk>/battles/<int:bid>/refuse/", league.battle_refuse, name="campaign-battle-refuse"),
    path("campaigns/<int:pk>/standings.csv", league.standings_csv, name="campaign-standings-csv"),
    path("campaigns/<int:pk>/standings.pdf", league.standings_pdf, name="campaign-standings-pdf"),
    path("lists/<int:pk>/history/", history.list_history, name="list-history"),  # issue 24
    path("lists/<int:pk>/history/restore/", history.list_restore, name="list-restore"),  # issue 39 item 4
    path("lists/<int:pk>/upgrade/", history.list_upgrade, name="list-upgrade"),
    path("lists/<int:pk>/download/<str:fmt>/", lists.download, name="list-download"),
    path("s/<str:token>/", lists.shared_detail, name="shared-list"),
    path("s/<str:token>/download/<str:fmt>/", lists.shared_download, name="shared-download"),
    path("s/<str:token>/copy/", lists.copy_shared, name="shared-copy"),
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
    # Tournaments
    path("events/", events.event_list, name="event-list"),
    path("events/new/", events.event_new, name="event-new"),
    path("events/<int:pk>/", events.event_detail, name="event-detail"),
    path("events/<int:pk>/edit/", events.event_edit, name="event-edit"),
    path("events/<int:pk>/submit/", events.event_submit, name="event-submit"),
    path("events/<int:pk>/recheck/", events.event_recheck, name="event-recheck"),
    path("events/<int:pk>/publish/", events.event_publish, name="event-publish"),
    path("events/<int:pk>/upload/", events.event_upload, name="event-upload"),
    path("events/<int:pk>/lists.csv", events.event_csv, name="event-csv"),
    path("events/<int:pk>/approved.pdf", events.event_muster, name="event-muster"),
    path("events/<int:pk>/muster/", events.event_muster_start, name="event-muster-start"),
    path("events/<int:pk>/jobs/", events.event_jobs, name="event-jobs"),
    path("events/<int:pk>/players.csv", events.event_players_csv, name="event-players-csv"),  # issue 17
    path("events/<int:pk>/teams/new/", event_teams.team_new, name="event-team-new"),  # issue 25
    path("events/<int:pk>/teams/join/", event_teams.team_join, name="event-team-join"),
    path("events/<int:pk>/teams/<int:tid>/remove/", event_teams.team_remove, name="event-team-remove"),
    path("events/<int:pk>/submissions/<int:sid>/", events.submission_detail, name="submission-detail"),
    path("events/<int:pk>/submissions/<int:sid>/review/", events.submission_review, name="submission-review"),
    path("events/notices/<int:nid>/read/", events.notice_read, name="notice-read"),
    path("events/<int:pk>/submissions/<int:sid>/download/<str:fmt>/", events.submission_download,
         name="submission-download"),
    # Game data kept current from where it is published (staff only; issue 24)
    path("game-data/", game_data.game_data, name="game-data"),
    path("game-data/add/", game_data.game_data_add, name="game-data-add"),
    path("game-data/<int:pk>/update/", game_data.game_data_update, name="game-data-update"),
    path("game-data/<int:pk>/", game_data.game_data_source, name="game-data-source"),
    # API
    path("api/v1/", include("armylists.api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves Swagger UI's start-up script as a file: no inline script (Content-Security-Policy).
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path("admin/", admin.site.urls),
]

handler404 = "armylists.api.errors.api_not_found"
handler400 = "armylists.api.errors.bad_request"
