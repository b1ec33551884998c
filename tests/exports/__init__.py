"""Lists out: text, JSON, PDF."""
