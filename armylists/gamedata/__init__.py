"""Game data kept current from where it is published (GitHub repositories, https zip archives).

fetching.py and github.py ask the internet, safely; archives.py checks and unpacks a download;
importing.py hands the files to the existing importers; updating.py runs one update of a source;
sources.py adds and holds sources; jobs.py runs an update as a background task; views.py is the
staff page. docs/game-data.md describes it all.
"""
