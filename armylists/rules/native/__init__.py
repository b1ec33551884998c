"""Our own books judged: the compiled Book, a list resolved into an Army, the engine, allies, selectors, figures."""
