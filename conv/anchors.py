"""Anchors (锚点): the citable ids of sections and passages.

Scheme: ``<work>-<chapter>-<n>`` for the n-th passage of a chapter and ``<work>-<chapter>-s<n>``
for its n-th section, in reading order (``judou-xiangshe-12``, ``judou-xiangshe-s3``).
"""
from __future__ import annotations

from .model import Edition


def assign(edition: Edition) -> None:
    """Give every section and passage its anchor."""
    for work in edition.works:
        for chapter in work.chapters:
            prefix = f"{work.id}-{chapter.id}"
            number = 0
            for index, section in enumerate(chapter.sections, 1):
                section.id = f"{prefix}-s{index}"
                for passage in section.passages:
                    number += 1
                    passage.id = f"{prefix}-{number}"
