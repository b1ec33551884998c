from django.urls import path

from armylists.api import battles, campaigns, game_data, history, tokens, units, views

urlpatterns = [
    path("systems/", views.SystemListView.as_view(), name="api-systems"),
    path("systems/<str:system>/", views.SystemDetailView.as_view(), name="api-system"),
    path("books/", views.BookListView.as_view(), name="api-books"),
    path("books/<str:system>/<str:book>/<str:version>/", views.BookDetailView.as_view(), name="api-book"),
    path("lists/", views.ListCollectionView.as_view(), name="api-lists"),
    path("lists/import/", views.ListImportView.as_view(), name="api-lists-import"),
    path("lists/<int:pk>/", views.ListItemView.as_view(), name="api-list"),
    path("lists/<int:pk>/units/", units.ListUnitsView.as_view(), name="api-list-units"),
    path("lists/<int:pk>/battles/", battles.ListBattlesView.as_view(), name="api-list-battles"),
    path("lists/<int:pk>/battles/undo/", battles.ListBattleUndoView.as_view(), name="api-list-battles-undo"),
    path("campaigns/", campaigns.CampaignCollectionView.as_view(), name="api-campaigns"),  # issue 41 item 5
    path("campaigns/join/", campaigns.CampaignJoinView.as_view(), name="api-campaigns-join"),
    path("campaigns/<int:pk>/", campaigns.CampaignItemView.as_view(), name="api-campaign"),
    path("campaigns/<int:pk>/battles/", campaigns.CampaignBattlesView.as_view(), name="api-campaign-battles"),
    path("campaigns/<int:pk>/battles/<int:bid>/confirm/", campaigns.CampaignBattleConfirmView.as_view(),
         name="api-campaign-battle-confirm"),
    path("campaigns/<int:pk>/battles/<int:bid>/refuse/", campaigns.CampaignBattleRefuseView.as_view(),
         name="api-campaign-battle-refuse"),
    path("lists/<int:pk>/report/", views.ListReportView.as_view(), name="api-list-report"),
    path("lists/<int:pk>/revisions/", history.ListRevisionsView.as_view(), name="api-list-revisions"),
    path("lists/<int:pk>/revisions/diff/", history.ListRevisionsDiffView.as_view(), name="api-list-revisions-diff"),
    path("lists/<int:pk>/revisions/<int:n>/restore/", history.ListRevisionRestoreView.as_view(),
         name="api-list-revision-restore"),
    path("lists/<int:pk>/upgrade/", history.ListUpgradeView.as_view(), name="api-list-upgrade"),
    path("lists/<int:pk>/export/", views.ListExportView.as_view(), name="api-list-export"),
    path("validate/", views.validate_view, name="api-validate"),
    path("game-data/sources/", game_data.SourceCollectionView.as_view(), name="api-game-data-sources"),
    path("game-data/sources/<int:pk>/update/", game_data.SourceUpdateView.as_view(), name="api-game-data-update"),
    path("auth/token/", tokens.TokenView.as_view(), name="api-token"),
    path("auth/tokens/", tokens.TokenCollectionView.as_view(), name="api-tokens"),
    path("auth/tokens/<str:key>/", tokens.TokenItemView.as_view(), name="api-token-item"),
]
