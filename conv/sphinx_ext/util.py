"""Shared vocabulary of the extension (共用): layers, labels, warnings, witness-text helpers.

Every warning the extension emits goes through :func:`warn`, with one of the subtypes of
``conv.sphinx_ext.warnings_.YlWarning`` (``yl.markup``, ``yl.anchor`` …: each documented there).
"""
from __future__ import annotations

import hashlib
import re
from pathlib import Path

from docutils import nodes
from sphinx.util import logging

from conv import datafiles as data
from conv.sphinx_ext.nodes import yl_char, yl_forms
from conv.sphinx_ext.warnings_ import YlWarning

logger = logging.getLogger("conv.sphinx_ext")

#: The extension's static files (CSS, JS, yili.sty) and HTML templates.
STATIC_DIR = Path(__file__).with_name("static")
TEMPLATES_DIR = Path(__file__).with_name("templates")
#: The package the extension is part of (``conv/``): the code, the data tables, the templates.
PACKAGE_DIR = Path(__file__).resolve().parents[1]


def files_digest(root: Path, skip: tuple[str, ...] = ()) -> str:
    """A digest (sha256) of every file under ``root`` but ``__pycache__`` and the folders ``skip`` (paths relative
    to ``root``): each file's path relative to ``root`` and its bytes."""
    digest = hashlib.sha256()
    skipped = tuple(f"{folder}/" for folder in skip)
    files = sorted((path.relative_to(root).as_posix(), path) for path in root.rglob("*")
                   if "__pycache__" not in path.relative_to(root).parts and path.is_file())
    for name, path in files:
        if skipped and name.startswith(skipped):
            continue
        content = path.read_bytes()
        digest.update(b"%d:%s%d:" % (len(name.encode("utf-8")), name.encode("utf-8"), len(content)))
        digest.update(content)
    return digest.hexdigest()


def code_version() -> int:
    """The extension's ``env_version`` (代码版本): a number that changes with every file of ``conv/`` but its static
    files. Sphinx reads every page again when it changes, so no page stays as older code wrote it (a visitor, a
    template, a data table the pages are written with); a style sheet or script alone is copied at every build."""
    return int(files_digest(PACKAGE_DIR, skip=("sphinx_ext/static",))[:12], 16)


#: The project's event that hands the builder at hand to a transform (构建器): Sphinx 9 deprecates
#: ``SphinxTransform.app`` and ``BuildEnvironment.app`` (removed in Sphinx 11) and gives a transform
#: no public way to its builder, but an event handler is called with the application.
BUILDER_EVENT = "yl-builder"


def setup_builder_event(app) -> None:
    """Register ``BUILDER_EVENT`` (once, whichever component asks first)."""
    if BUILDER_EVENT not in app.events.events:
        app.add_event(BUILDER_EVENT)
        app.connect(BUILDER_EVENT, lambda app: app.builder)


def builder_of(env):
    """The builder at hand, for a (post-)transform: ``self.env`` is public, ``self.app`` is not."""
    return env.events.emit_firstresult(BUILDER_EVENT)


def use_templates(app, folder: Path = TEMPLATES_DIR) -> None:
    """At setup: put ``folder`` (by default the extension's own ``templates/``) on the project's
    ``templates_path`` at ``config-inited``, once however many components ask for it."""
    def add(app, config) -> None:
        if str(folder) not in config.templates_path:
            config.templates_path.append(str(folder))

    app.connect("config-inited", add)

#: The main-text layers of a passage.
TEXT_LAYERS = {"jing": "经", "ji": "记", "front": "文", "errata": "校"}
#: The commentary layers, in the order of the toolbar; the value is the printed label.
SEGMENT_LAYERS = {"zhu": "注", "shu": "疏", "an": "按", "jiao": "校语", "yin": "音义", "mulu": "目录", "chu": "出处",
                  "small": "小字"}
#: Layers of the text outside the 仪礼 and its commentary: the 卷首 of both works, 张尔岐's collation
#: notes, their small characters (the legend of the 仪礼's layers leaves them out).
APART_LAYERS = ("front", "errata", "small")
#: Longer names, for the legend and tooltips.
LAYER_NAMES = {
    "jing": "经文",
    "ji": "记文",
    "front": "卷首之文：提要、序、目录、札子（非经文）",
    "errata": "张尔岐监本正误、石本误字",
    "zhu": "郑注",
    "shu": "贾疏",
    "an": "按语（张尔岐、朱熹及所引诸家）",
    "yin": "音义",
    "mulu": "郑目录",
    "chu": "出处（《通解》所录之书、篇）",
    "jiao": "校语（《通解》月令所记吕氏春秋、淮南子、唐月令之异文）",
    "small": "小字（提要、序、校记中之小字）",
    "title": "章旨",
    "meta": "卷次、著录",
}
#: The legend's names: the 注 and 疏 of the 仪礼 are 郑玄's and 贾公彦's; the 通解 quotes other books with theirs.
LEGEND_NAMES = {
    **LAYER_NAMES,
    "zhu": "郑注（《通解》所录他书之注各从其书，如大学、中庸为朱熹章句，亲属记为郭璞注）",
    "shu": "贾疏（《通解》所录他书之疏各从其书）",
}
#: The names of the 注 and 疏 on a 篇 of the 通解 not from the 仪礼 (``commentary`` names one hand).
OTHER_BOOKS = {"zhu": "注（所录他书之注）", "shu": "疏（所录他书之疏）"}


def layer_names(docname: str) -> dict[str, str]:
    """The layers' names on the page ``docname``: :data:`LAYER_NAMES`, but on a 篇 of the 通解 not from
    the 仪礼 (conv/data/tongjie_chapters.toml ``yili``) the 注 and 疏 are the quoted books' own
    (:data:`OTHER_BOOKS`; its ``commentary`` where one hand wrote them all: 朱熹章句)."""
    work, _, chapter = docname.partition("/")
    entry = data.chapter_of(work, chapter) if work == "tongjie" and not data.is_yili(work, chapter) else None
    if entry is None or entry.get("front"):
        return LAYER_NAMES
    return {**LAYER_NAMES, **OTHER_BOOKS, **({"zhu": entry["commentary"]} if entry.get("commentary") else {})}


#: What the reader sees where the witness is cut off.
LACUNA_LABELS = {"start": "前阙", "end": "后阙", "gap": "中阙",
                 "join-kanripo": "以下据文渊阁本", "join-seed": "以下据录入本", "lost": "此篇阙"}
LACUNA_TITLES = {
    "start": "底本此前残缺：节录自此处开始",
    "end": "底本此后残缺：节录至此处中断",
    "gap": "底本此处有缺",
    "join-kanripo": "底本自此据文渊阁《四库全书》本（汉籍リポジトリ录文）",
    "join-seed": "底本自此据录入本（简体录文，已与文渊阁本对校）",
    "lost": "目录有此篇，正文无",
}
#: 卷 lines, 钦定四库全书, the author, the catalogue line, the 记 marker; in the 通解 a part line
#: (家禮一之上), a 篇's note that it is lost (此一篇原闕), a label inside a 篇 (經七, 集補經); the
#: editors' line in a chapter's head naming the witness of each stretch (``witnesses``); a 篇's title
#: given again where a seed and the witness join (``chapter-title``, ``conv.edition.joins``); in the
#: 句读's 提要 the 四库 editors' names (``credits``: 總纂官(臣)紀昀 …)
META_KINDS = ("juan", "siku", "author", "catalogue", "ji-marker", "part", "lost", "label", "witnesses",
              "chapter-title", "credits")

#: Anchors are converter-made slugs; they must be usable as HTML ids and LaTeX labels.
ANCHOR_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_.-]*$")
#: Ids docutils makes up when a title yields no usable id (CJK headings): never cited.
AUTO_ID_RE = re.compile(r"^id\d+$")


def warn(message: str, subtype: YlWarning, location: object = None) -> None:
    """Emit a ``yl.<subtype>`` warning at ``location`` (a node or ``(docname, line)``): the
    file and line go before the message, the subtype after it (``[yl.cite]``)."""
    logger.warning(message, type="yl", subtype=subtype.value, location=location)


def witness_text(node: nodes.Node) -> str:
    """The text of ``node`` as the witness prints it (variant forms, PUA code points)."""

    if isinstance(node, (yl_char, yl_forms)):
        return node["witness"]
    if isinstance(node, nodes.Text):
        return str(node)
    return "".join(witness_text(child) for child in node.children)


def opening_words(text: str, length: int = 12) -> str:
    """The first words of a passage, for titles of anchors (〔opening words…〕)."""
    text = "".join(text.split())
    return text if len(text) <= length else text[:length] + "…"


def visit_noop(self, node: nodes.Node) -> None:
    """A visitor that renders only the node's children."""


def depart_noop(self, node: nodes.Node) -> None:
    """A departure that adds nothing."""


def replace_child(old: nodes.Node, new: nodes.Node | None) -> None:
    """Replace (or, with ``None``, remove) ``old`` in its parent, found by identity: Text nodes
    are strings, and ``Element.replace`` would pick the first *equal* one ("\\n" twice)."""
    parent = old.parent
    index = next(i for i, child in enumerate(parent.children) if child is old)
    if new is None:
        del parent[index]
    else:
        parent[index] = new


def visit_block_man_texinfo(self, node: nodes.Element) -> None:
    """man and texinfo: a block node prints as a paragraph."""
    self.visit_paragraph(node)


def depart_block_man_texinfo(self, node: nodes.Element) -> None:
    self.depart_paragraph(node)


BLOCK = (visit_block_man_texinfo, depart_block_man_texinfo)


def add_node(app, node: type, *, html, latex, text, other=(visit_noop, depart_noop)) -> None:
    """Register a node with its HTML, LaTeX and text visitors; man and texinfo share ``other``."""
    app.add_node(node, html=html, latex=latex, text=text, man=other, texinfo=other)


def replace_node(node: nodes.Node, new) -> None:
    """Put ``new`` (a node or a list of nodes) in ``node``'s place in its parent, found by identity:
    docutils' ``Element.replace`` finds it by ``index``, which takes a ``Text`` equal to it (the same
    characters) earlier in the parent for it (``之``, a note, ``之``: the first would be replaced)."""
    parent = node.parent
    at = next(index for index, child in enumerate(parent.children) if child is node)
    parent[at:at + 1] = new if isinstance(new, list) else [new]
