"""References (引用): the ``yl`` domain of anchors, ``yl:cite`` and redirects, editorial notes (编者校注)."""
