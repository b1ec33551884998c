"""The engine: reading, the native checks at their boundaries, event rules."""
