"""The stored list and the books as pages use them: access to a list, the site's library of books
(catalogue, books_cache), a list opened and an edit saved (stored), the pure edits (edits), entries'
costs and choices, the item picker's choices, messages in a player's words. Imports no importer.
"""
