"""Readers (读入): witness files → decoded text with positions (lines, pages), and the manifest."""
