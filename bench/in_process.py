"""The site in this process, for the benches that time it through Django's test client: a fresh SQLite
database in a temporary folder, DEBUG off, migrated. Call `start_site()` before importing anything of Django."""
from __future__ import annotations

import os
import tempfile


_FOLDERS: list[tempfile.TemporaryDirectory] = []  # removed when the process ends


def start_site(name: str) -> None:
    """Set up Django on a new database, in a folder that lives as long as the process."""
    folder = tempfile.TemporaryDirectory(prefix="armylists-bench-")
    _FOLDERS.append(folder)
    os.environ.update(DATABASE_URL=f"sqlite:///{folder.name}/bench.sqlite3", DEBUG="false",
                      SECRET_KEY=f"bench-{name}-not-secret", ALLOWED_HOSTS="testserver")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "armylists.settings")
    os.environ.setdefault("RATE_LIMITS", "off")  # one user sends hundreds of edits: time the work, not the limit (bench/rate_limit.py)
    import django
    django.setup()
    from django.core.management import call_command
    call_command("migrate", verbosity=0)
