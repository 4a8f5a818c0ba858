"""Collation (校勘对齐): align a seed with the second witness and classify every difference."""
