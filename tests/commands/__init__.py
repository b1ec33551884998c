"""manage.py commands."""
