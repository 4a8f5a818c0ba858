"""The edition's doctree nodes (节点): every ``yl_*`` node class, with the tree it makes.

This module imports docutils only. Directives (``conv.sphinx_ext.text`` and the others) make these
nodes, transforms reshape them, and each output module registers the visitors for its nodes.
"""
from __future__ import annotations

from docutils import nodes



class yl_passage(nodes.General, nodes.Element):  # noqa: N801
    """A passage: its words, then its segments (all inline, in reading order)::

        <yl_passage ids="judou-xiangshe-1" anchor="judou-xiangshe-1" layer="jing"
                    source="000_….txt:7:1" lacuna="" classes="yl-passage yl-jing">
            <yl_text layer="jing" classes="yl-text yl-jing">
                司马命获者执旌以负侯          (Text, yl_char, yl_gloss)
            <yl_segment layer="zhu" classes="yl-note yl-zhu">
                欲令射者见侯与旌深有志于中
            <yl_segment layer="an" classes="yl-note yl-an">
                …

    HTML: ``<div id=ANCHOR class="yl-passage yl-jing">`` with inline ``<span>`` children and
    no whitespace between them (a newline between CJK characters would show as a space).
    LaTeX: a ``ylpassage`` environment with a label and the passage's number in the margin
    (``\\ylnum``). Text: one paragraph, segments in 【】.
    """

    child_text_separator = ""  # astext(): words and segments as one run of text


class yl_text(nodes.Inline, nodes.TextElement):  # noqa: N801
    """The printed words of a passage, a section title or a chapter title (``layer``)."""


class yl_segment(nodes.Inline, nodes.TextElement):  # noqa: N801
    """One commentary segment, inline after the words it explains::

        <yl_segment layer="shu" lacuna="" classes="yl-note yl-shu">
            疏云相左之时在西阶之西…          (Text, yl_char, yl_gloss)

    HTML: ``<span class="yl-note yl-shu" data-layer="shu">``; each layer has its own size,
    colour and face (``yili.css``) and can be hidden (``html.yl-hide-shu``). LaTeX:
    ``{\\ylnote{shu}{疏}…}`` (``yili.sty``: small type; lead marks 〔疏〕 〔按〕, 音义 in the sans
    face) with 【】 around the segments of one passage and ``\\ylsep`` between them. Text:
    ``【注：…　疏：…】``.
    """


class yl_title(nodes.General, nodes.Element):  # noqa: N801
    """A section title as the witness prints it::

        <yl_title section="judou-xiangshe-s1" classes="yl-title">
            <yl_text layer="title" classes="yl-text yl-text-title">
                右饮不胜者
            <yl_segment layer="an" classes="yl-note yl-an">
                若饮君则夹爵见前章

    HTML ``<div class="yl-title" data-section=…>``; LaTeX ``ylline`` environment; text: a
    paragraph.
    """

    child_text_separator = ""  # astext(): words and segments as one run of text


class yl_chaptertitle(nodes.General, nodes.Element):  # noqa: N801
    """The chapter title line with its 郑目录::

        <yl_chaptertitle classes="yl-chaptertitle">
            <yl_text layer="chaptertitle" classes="yl-text yl-text-chaptertitle">
                燕礼第六
            <yl_segment layer="mulu" classes="yl-note yl-mulu">
                郑目录云…
    """

    child_text_separator = ""  # astext(): words and segments as one run of text


class yl_meta(nodes.General, nodes.TextElement):  # noqa: N801
    """A metadata line as printed::

        <yl_meta kind="juan" classes="yl-meta yl-meta-juan">
            仪礼郑注句读卷六
    """


class yl_lacuna(nodes.General, nodes.Element):  # noqa: N801
    """Where the witness is cut off (no children; the visitors print 〔前阙〕 〔后阙〕 〔中阙〕)::

        <yl_lacuna kind="start" classes="yl-lacuna yl-lacuna-start">
    """


class yl_char(nodes.Inline, nodes.TextElement):  # noqa: N801
    """One witness character whose reading form differs::

        <yl_char witness="賔" normal="宾" kind="variant" title="賔 → 宾">
            宾

    ``kind`` is ``variant`` (the project's table or OpenCC t2s) or, for a PUA code point,
    ``pua-quebi``, ``pua-variant``, ``pua-spurious`` (``normal`` is ``""``, no child) or
    ``pua-unknown`` (child 〓). ``resolved`` is the witness form with PUA resolved (what the
    diplomatic view shows). The only child is the reading form.
    """


class yl_forms(nodes.Inline, nodes.TextElement):  # noqa: N801
    """A run of witness text holding characters whose reading form differs (字形段: 底本字形与规范字形)::

        <yl_forms witness="賔禮於堂" trad="">
            宾礼于堂

    One node for the whole run instead of one ``yl_char`` per folding character. The only child
    is the reading form (``astext()``: search, titles); ``witness`` holds the witness's forms, one
    per character of the child (a variant form, never a PUA code point or a character Unicode
    lacks: those keep their own ``yl_char``); ``trad`` the 文渊阁 forms, one per character, or
    ``""`` when none differs (the 繁体 view, ``conv.sphinx_ext.text.witness_forms``). HTML writes
    one span holding each form once (``chars.visit_forms_html``; ``yili.css`` shows one per view).
    """


class yl_emend(nodes.Inline, nodes.TextElement):  # noqa: N801
    """An emendation (据改): the seed printed ``printed`` (a stand-in such as 防, or nothing), the
    文渊阁 witness has ``adopted``, which the reading text takes::

        <yl_emend printed="防" adopted="䙝" normal="䙝" entry="judou-xiangshe-151-jiao-1" refdoc="apparatus/judou">
            䙝

    The only child is the reading form (``astext()``: search, tables of contents). HTML shows the
    printed form, marked, in the 底本 view, the reading form in 规范 and the adopted form in 繁体,
    and links to the apparatus entry (``refdoc`` set by ``ApparatusMarks``); LaTeX and text print
    the reading form. ``basis``: ``collation``, or ``misprint`` for the witness's own misprint of its
    words (``{yl:misprint}``: printed 閒, adopted 聞).
    """


class yl_trad(nodes.Inline, nodes.TextElement):  # noqa: N801
    """A run of a seed's characters whose 文渊阁 forms differ (繁体 view)::

        <yl_trad trad="賓禮">
            宾礼

    HTML: the child in ``<span class="yl-s">``, the 文渊阁 forms in ``<span class="yl-t">`` (shown
    only in the 繁体 view); LaTeX and text: the child. ``astext()`` is the seed's text.
    """


class yl_gloss(nodes.Inline, nodes.TextElement):  # noqa: N801
    """One gloss, as printed, with its parsed fields (strings; ``""`` when absent)::

        <yl_gloss char="弛" kind="fanqie" upper="尸" lower="纸" sound="" context="" scope=""
                  definition="" second="" position="書開三支上" status="matches"
                  classes="yl-gloss">
            弛尸纸反

    HTML: ``<span class="yl-gloss" data-char="弛" data-kind="fanqie" … title="弛 尸纸反 …">``.
    A role may hold a gloss with its second readings (``纯之闰反又章允反``: ``also`` and
    ``also_position`` keep them); a second reading in a role of its own (``又章允反`` after
    ``纯之闰反``) gets the preceding gloss's character (``SecondReadings``).
    """


class yl_cite(nodes.Inline, nodes.TextElement):  # noqa: N801
    """A resolved ``yl:cite``: the reference to the target, and what it names::

        <yl_cite anchor="judou-xiangshe-12" cited="judou-xiangshe-12" kind="passage">
            <reference refuri="xiangshe.html#judou-xiangshe-12" reftitle="《仪礼郑注句读·乡射礼》…">
                <inline classes="xref yl yl-cite">《句读·乡射礼》司马出于下射之南还其后降…
    """


class yl_redirect(nodes.Invisible, nodes.Element):  # noqa: N801
    """``yl:redirect`` before the transform moves its anchor onto the target node."""


class yl_ednote(nodes.General, nodes.Element):  # noqa: N801
    """An editorial note on its notes page::

        <yl_ednote ids="note-judou-xiangshe-51" target="judou-xiangshe-51" end=""
                   author="编者" date="2025-11-30" classes="yl-ednote">
            <paragraph classes="yl-ednote-head">      (added when written: PlaceNotes)
                <inline classes="yl-ednote-number">〔一〕
                <reference refuri="../../judou/xiangshe.html#judou-xiangshe-51">乡射礼 …
                …
            <container classes="yl-ednote-body">
                <paragraph>…                           (the note's MyST, its footnotes last)

    HTML ``<div class="yl-ednote" id=…>``; LaTeX: the head and the page of the passage (the body
    is printed as a footnote at the passage); text: head and body.
    """


class yl_ednote_ref(nodes.General, nodes.Element):  # noqa: N801
    """A note at its passage (the last child of the ``yl_passage``; after a heading for a
    section or chapter anchor), made when the chapter page is written::

        <yl_ednote_ref number="1" label="〔一〕" note="notes/judou/xiangshe#note-judou-xiangshe-51"
                       classes="yl-ednote-ref">
            <container classes="yl-ednote-body">       (a copy of the note's body)
            <paragraph classes="yl-ednote-foot">       (author, date, link to the notes page)

    HTML: ``<details class="yl-ednote-ref no-search"><summary>〔一〕</summary>…</details>``
    (``no-search``: the passage search matches the note on its notes page, not here). LaTeX:
    ``\\footnote{…}``. Text, man, texinfo: the label only.
    """


class yl_app(nodes.General, nodes.Element):  # noqa: N801
    """One apparatus entry (label and source are attributes, printed by the visitors)::

        <yl_app ids="judou-xiangshe-18-jiao-1" label="校1" kind="pua" locus="judou-xiangshe-18"
                source="000_….txt:7:704" summary="校1 私用区字：…" classes="yl-app yl-app-pua">
            <inline classes="yl-app-locus">
                <pending_xref refdomain="yl" reftype="cite" reftarget="judou-xiangshe-18">
                    乡射礼18                                  (→ yl_cite after resolving)
            <inline classes="yl-app-body">
                “弦”：底本作私用区码位 U+EB8E（缺笔）……       (Text, yl_char)

    HTML ``<div class="yl-app yl-app-pua" id=…>``; LaTeX a paragraph with a hanging indent and
    a label; text a paragraph ``校3 乡射礼18　… [000_….txt:7:704]``.
    """


class yl_appmark(nodes.Inline, nodes.Element):  # noqa: N801
    """The marks of a locus's apparatus entries, in the text: ``marks`` is a list of
    ``(docname, entry id, label, tooltip)``. No text child (never indexed or searched)."""


class yl_datatable(nodes.General, nodes.Element):  # noqa: N801
    """A data table::

        <yl_datatable classes="yl-gloss-index" widths=[4, 3, …] cells=["text", "witness", …]
                      header=["广韵地位", …] rows=[["書開三支上", "弛尸纸反", …,
                      ["句读·乡射礼78", "judou-xiangshe-78"]], …] lines=[14, …]
                      docname="apparatus/glosses">
            | 广韵地位 | 音义 | … |                         (Text: the table in reading form)
            | 書開三支上 | 弛尸纸反 | … | 句读·乡射礼78 |

    ``lines`` are the rows' source lines, ``docname`` the page's; after ``TableCitations``,
    ``targets`` maps each cited anchor that resolves to ``(docname, anchor, tooltip)`` (the live
    anchor a redirected one lands on).
    """


class yl_parallel(nodes.General, nodes.Element):  # noqa: N801
    """A passage's parallels (互见), at the end of its passage: ``counterparts`` (anchors of the
    other work's passages holding the same 经) and ``see_also`` (参见: passages of the same work
    sharing a sentence). Filled when a page is written (``refs.parallels``)::

        <yl_parallel passage="judou-shiguan-3" counterparts=["tongjie-shiguan-5"] see_also=[]
                     classes="yl-parallel no-search">
            <yl_counterpart label="通解">                     (HTML: a disclosure)
                <container classes="yl-counterpart-item">
                    <reference refuri="../tongjie/shiguan.html#tongjie-shiguan-5">通解·士冠礼5 …
                    <yl_text …> <yl_segment …> …             (copies of the passage's words and notes)
            <inline classes="yl-seealso">参见 <reference …>…

    HTML: ``<details class="yl-counterpart"><summary>通解</summary>…</details>`` (no script).
    LaTeX: ``\\ylcounterpart{\\ylcp{通解·士冠礼5}{卷二叶三a}{label}}`` in the right margin beside the
    passage's first line (no copies). Text: nothing.
    """


class yl_counterpart(nodes.General, nodes.Element):  # noqa: N801
    """The disclosure of a passage's counterparts in the other work (see ``yl_parallel``)."""


class yl_pair(nodes.General, nodes.Element):  # noqa: N801
    """A row of a parallel page (对照): passages of two works holding the same 经 (``base`` and
    ``other``, anchors), filled when the page is written::

        <yl_pair base=["judou-shiguan-3"] other=["tongjie-shiguan-5", "tongjie-shiguan-6"]
                 classes="yl-pair no-search">
            <container classes="yl-pair-side">  (copies as in ``yl_parallel``, one per passage)
            <container classes="yl-pair-side">

    HTML: a grid row, two columns on wide screens, one on phones. LaTeX: the two lists of
    passages with their pages.
    """


class yl_diagram(nodes.General, nodes.Element):  # noqa: N801
    """A diagram of the book (图, ``yl:diagram``): its printed columns, right to left as read::

        <yl_diagram ids="judou-gongshi-91" anchor="judou-gongshi-91" caption="饌位圖（…）"
                    page="卷九叶八b" source="KR1d0038_009.txt:144:1" classes="yl-diagram">
            <yl_diagram_part part="column" number="1">
                <yl_diagram_part part="gap" size="5">
                <yl_diagram_part part="pair">
                    <yl_diagram_text part="half">  飲酒豐麋臡   (Text, yl_char, yl_forms)
                    <yl_diagram_text part="half">  昌本
                <yl_diagram_text part="label">  席東正饌

    HTML: a ``<figure>`` whose columns stand right to left (``writing-mode: vertical-rl``), with
    its caption; LaTeX: a table of one row per printed column; text: one line per column."""


class yl_diagram_part(nodes.General, nodes.Element):  # noqa: N801
    """A part of a ``yl_diagram``: ``part`` column | pair | gap (``size`` blanks)."""


class yl_diagram_text(nodes.General, nodes.TextElement):  # noqa: N801
    """The words of a cell of a ``yl_diagram``: ``part`` half (of a pair) | label. A text block of
    its own: the search pairs characters within it, never across cells."""
