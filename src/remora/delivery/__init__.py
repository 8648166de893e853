"""Remora's changes where the code lives: git commits, pull-request reviews, patches, SARIF."""
