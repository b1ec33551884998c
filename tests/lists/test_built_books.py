"""The books built from the database, kept within a size budget (issue 39 item 2; docs/deploy.md,
"Memory"): the least recently used dropped first, the book just built always kept; and the warm-up that
builds the imported books in a worker's background thread, after the fork, up to that budget."""
from __future__ import annotations

import os
import pickle

import pytest

from armylists.lists.library import catalogue
from armylists.lists.library.books_cache import BuiltBooks, built_books
from armylists.ops import warmup


def size(value) -> int:
    return len(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))


def test_the_least_recently_used_goes_first_once_past_the_budget():
    a, b, c = "a" * 1000, "b" * 1000, "c" * 1000
    books = BuiltBooks(budget_bytes=size(a) + size(b))   # room for two
    books["a"], books["b"] = a, b
    assert (books.keys(), books.size) == (["a", "b"], size(a) + size(b))
    assert books.get("a") == a          # "a" used: "b" is now the oldest
    books["c"] = c
    assert books.keys() == ["a", "c"] and "b" not in books and books.get("b") is None
    assert books.size == size(a) + size(c)


def test_a_book_larger_than_the_budget_stays_alone_until_the_next():
    books = BuiltBooks(budget_bytes=10)
    books["big"] = "x" * 5000
    assert books.keys() == ["big"]
    books["next"] = "y" * 5000
    assert books.keys() == ["next"] and books.size == size("y" * 5000)
    books.clear()
    assert (len(books), books.size) == (0, 0)


def test_the_budget_is_read_from_books_memory_mb(monkeypatch):
    monkeypatch.setenv("BOOKS_MEMORY_MB", "1.5")
    assert built_books().budget == 1536 * 1024
    monkeypatch.delenv("BOOKS_MEMORY_MB")
    assert built_books().budget == 512 * 1024 * 1024


def test_the_background_warm_up_builds_the_imported_books_up_to_the_budget(monkeypatch):
    keys = [("bs-x", f"bs-book-{n}", "r1") for n in range(5)]
    made = []

    def get_book(system, book, version):
        made.append(book)
        catalogue._stored_books[(system, book, version)] = "z" * 400
        return object()
    monkeypatch.setattr(catalogue, "imported_book_keys", lambda system=None: keys)
    monkeypatch.setattr(catalogue, "get_book", get_book)
    monkeypatch.setattr(catalogue, "_stored_books", BuiltBooks(budget_bytes=3 * size("z" * 400)))
    # 80% of three books' room: it stops once three are built (2.4 books' worth passed).
    assert warmup.warm_imported(pause=0) == 3 and made == ["bs-book-0", "bs-book-1", "bs-book-2"]


def test_a_book_that_does_not_build_does_not_stop_the_warm_up(monkeypatch):
    def get_book(system, book, version):
        if book == "broken":
            raise ValueError("bad data")
        return object()
    monkeypatch.setattr(catalogue, "imported_book_keys", lambda system=None: [("s", "broken", "1"), ("s", "ok", "1")])
    monkeypatch.setattr(catalogue, "get_book", get_book)
    assert warmup.warm_imported(pause=0) == 1


def test_the_warm_up_starts_its_thread_only_in_a_forked_worker(monkeypatch):
    started = []
    monkeypatch.setattr(warmup, "warm_imported_in_background", lambda: started.append(os.getpid()))
    monkeypatch.setattr(warmup, "_warmed_in", [])
    warmup.warm()                         # the master (or a process without preload): no thread
    assert started == []
    monkeypatch.setattr(warmup, "_warmed_in", [os.getpid() + 1])   # as if warmed in a parent before a fork
    warmup.warm()
    assert started == [os.getpid()]
