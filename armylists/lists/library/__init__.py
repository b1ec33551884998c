"""The site's library of books: the rules on disk and in the database, compiled and cached, and the data each is of."""
