"""What a book offers the pages: entries priced, the item picker's and the pools' choices, rule texts."""
