"""The list of the extension's components, in registration order. Add one line per component."""
from __future__ import annotations

SETUPS: list = []
