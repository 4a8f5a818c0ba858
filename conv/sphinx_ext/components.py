"""The list of the extension's components, in registration order. Add one line per component."""
from __future__ import annotations

from conv.sphinx_ext.backmatter.apparatus import setup_apparatus
from conv.sphinx_ext.text.cjk import setup_cjk
from conv.sphinx_ext.text.chars import setup_chars
from conv.sphinx_ext.text.witness_forms import setup_witness_forms
from conv.sphinx_ext.refs.cite import setup_cite
from conv.sphinx_ext.refs.contents import setup_contents
from conv.sphinx_ext.refs.domain import setup_domain
from conv.sphinx_ext.text.glosses import setup_glosses
from conv.sphinx_ext.backmatter.terms import setup_terms
from conv.sphinx_ext.output.latex import setup_latex
from conv.sphinx_ext.text.segments import setup_segments
from conv.sphinx_ext.text.meta import setup_meta
from conv.sphinx_ext.refs.ednotes import setup_ednotes
from conv.sphinx_ext.text.passage import setup_passage
from conv.sphinx_ext.text.diagram import setup_diagram
from conv.sphinx_ext.text.permalink import setup_permalink
from conv.sphinx_ext.search.language import setup_search
from conv.sphinx_ext.seeds import setup_seeds
from conv.sphinx_ext.backmatter.tables import setup_tables
from conv.sphinx_ext.text.titles import setup_titles
from conv.sphinx_ext.output.toolbar import setup_toolbar
from conv.sphinx_ext.output.locale import setup_locale
from conv.sphinx_ext.output.navparts import setup_navparts
from conv.sphinx_ext.output.page_titles import setup_page_titles
from conv.sphinx_ext.output.integrity import setup_integrity
from conv.sphinx_ext.output.latex_text import setup_latex_text
from conv.sphinx_ext.refs.parallels import setup_parallels

SETUPS: list = [
    setup_domain,  # first: the others register their directives and roles into the yl domain
    setup_integrity,  # an interrupted build is followed by a full one; departed pages removed
    setup_seeds,  # -D yl_seeds=../seeds: the seeds converted at config-inited (seeds.py)
    setup_chars,
    setup_witness_forms,  # emendations ({yl:emend}) and the 繁体 view's forms (:trad:)
    setup_glosses,
    setup_passage,
    setup_diagram,  # yl:diagram, a figure of the book (图: text/diagram.py)
    setup_segments,
    setup_titles,
    setup_meta,
    setup_cjk,
    setup_toolbar,
    setup_locale,  # furo's interface strings in Chinese (output/locale.py)
    setup_navparts,  # a work's parts (the 通解's 家礼 …) in the site navigation (output/navparts.py)
    setup_page_titles,  # a 篇's window title with its work: 句读·士冠礼 (output/page_titles.py)
    setup_latex,  # the typeset book: front matter, part intros, back matter (latex.py)
    setup_latex_text,  # the text in the PDF as in the edition: controls refused, ASCII runs break
    setup_search,  # the search language lzh (search/language.py)
    setup_cite,  # yl:cite, yl:redirect, std labels of passages (refs/cite.py)
    setup_contents,  # yl:contents WORK: a work's 篇 on the front page (refs/contents.py)
    setup_permalink,  # the 引 permalink after each passage in HTML
    setup_ednotes,  # yl:note, editorial notes at their passages (refs/ednotes.py)
    setup_parallels,  # 互见: yl:parallel (the 通解/句读 control, 参见), yl:pair rows (refs/parallels.py)
    setup_apparatus,  # yl:app entries of the apparatus pages, their marks in the text, yl:witness
    setup_tables,  # yl:datatable, the back matter's tables: one node each (backmatter/tables.py)
    setup_terms,  # the index of terms (yl-terms) and the terms in the general index
]
