"""Benchmarks of the edition at full scale against plain Sphinx (``python -m bench``; see bench/README.md)."""
