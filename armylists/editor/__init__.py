"""The list pages: my lists, a new list, a list's page and downloads, the editor and its unit cards and
report panel, the book pages. Views stay thin: an edit is `armylists.lists.saved.edits` (what it does to the
document), `armylists.lists.saved.stored.save_edit` (re-checked and saved), then rendered here.
"""
