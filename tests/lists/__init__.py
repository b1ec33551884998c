"""The site's library of books."""
