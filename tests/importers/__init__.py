"""Old World Builder's and New Recruit's T9A data and lists."""
