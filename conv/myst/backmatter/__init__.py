"""Back matter (校勘记与索引): the pages the converter writes beside the chapters, under
``source/apparatus/`` (see ``conv/FORMAT.md``, "Back matter"):

- ``apparatus/<work>.md`` — the critical apparatus (校勘记) of one work: every editorial
  intervention of the conversion (``Edition.apparatus``: reviewed corrections with their reasons,
  private-use code points resolved or removed, page breaks joined, where the excerpt is cut off),
  the material dropped (``Edition.dropped``) and every 今文/古文 reading 郑注 reports
  (``conv.analyses.readings``), each entry a ``yl:app`` directive that names the passage it concerns; the
  extension marks that passage in the text with the entry's label (校3, 异5) linking back;
- ``apparatus/glosses.md`` and ``apparatus/glosses-*.md`` — the 音义 glosses ordered by their computed
  广韵 position, a page per 摄 (``conv.parser.phonology.sort_key``: 韵, 声调, then 母 …), and those
  whose position is not the glossed character's own (``other reading``) or could not be computed
  (``unresolved``) apart;
- ``apparatus/glossary.md`` — 郑注's definitions (``conv.analyses.glossary``), ordered by pinyin;
- ``apparatus/index.md`` — the table of contents of the back matter.

The index of terms (名物索引) is not written here: the extension computes it from the text of the
passages it reads (``conv.sphinx_ext.backmatter.terms``, the domain index ``yl-terms``).

Entries are located by their seed span: the passage (with its notes), section title (with its
notes) or chapter title line (with its 郑目录, and metadata lines) whose span holds the entry's
start (a correction that settles a section title: that title); an entry between them (where an excerpt is cut off, a dropped line) belongs to the next
passage, or for what ends an excerpt (``lacuna-end``, ``lacuna-chapter-end``, ``dropped``) to
the previous one. Entries are numbered within their locus, in page order: ids
``judou-xiangshe-18-jiao-2``, ``judou-shiguan-3-yi-1`` and labels 校2, 异1 (the second intervention of
乡射礼18, the first reading of 士冠礼3), cited with the locus (乡射礼18校2). An entry added to or
removed from one passage renumbers that passage's entries only.
"""
