from importlib import import_module

from django.apps import AppConfig


# The importers' list formats, registered with the list files part in this order (asked in it): New
# Recruit's summary before Old World Builder's saved list (both JSON objects with an "army"; a summary
# alone has "units").
LIST_FORMATS = ("armylists.importers.battlescribe.list_formats", "armylists.importers.nr_t9a.list_formats",
                "armylists.importers.owb.list_formats")


class ArmyListsConfig(AppConfig):
    name = "armylists"
    verbose_name = "Army lists"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        from armylists.accounts import password_changes

        password_changes.connect()
        for module in LIST_FORMATS:
            import_module(module)
        post_migrate.connect(create_cache_table, sender=self)


def create_cache_table(**kwargs) -> None:
    """`migrate` also makes the database cache's table (rate-limit counts live there: settings.CACHES),
    so the set-up stays one `migrate`; a no-op when it exists or the cache is not the database."""
    from django.core.management import call_command

    call_command("createcachetable", database=kwargs.get("using", "default"), verbosity=0)
