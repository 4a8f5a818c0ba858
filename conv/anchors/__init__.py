"""Anchors (锚点): the citable ids of passages and sections, and the committed ledger."""
