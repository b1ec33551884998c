"""Reading from outside: rules data files into Books, list documents into Rosters and roster trees, zip archives, plain data."""
