from django.apps import AppConfig


class ArmyListsConfig(AppConfig):
    name = "armylists"
    verbose_name = "Army lists"
    default_auto_field = "django.db.models.BigAutoField"
