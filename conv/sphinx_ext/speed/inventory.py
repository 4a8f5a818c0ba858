"""``objects.inv`` kept between builds (对象清单留存): written again only when what it lists changed.

Sphinx (9.0) writes the inventory at the end of every HTML build: every object of every domain (on
the whole 仪礼 some 16,000 passages, sections and notes), each line compressed on its own. An
incremental build after an editorial note changed lists the same objects, and wrote the same file
again for about a twentieth of its time.

Here the inventory's inputs — the project's name and version, the builder and its link suffixes,
and each domain's objects sorted as Sphinx sorts them — are digested into a signature (with the
package's files and the libraries' versions, ``conv.sphinx_ext.speed.kept``), kept in
``yl-inventory.pickle`` in the doctree directory together with the size and modification time of
the ``objects.inv`` written under it. A build whose signature is the kept one, and whose
``objects.inv`` is still that file, leaves it as it is; any other writes it as Sphinx does.

Private API (Sphinx 9.0): ``StandaloneHTMLBuilder.dump_inventory``.
"""
from __future__ import annotations

from pathlib import Path

from sphinx.application import Sphinx
from sphinx.builders.html import INVENTORY_FILENAME

from conv.sphinx_ext.speed.kept import Signature, file_state, read_kept, signature, write_kept
from conv.sphinx_ext.speed.versions import compatible

INVENTORY_CACHE = "yl-inventory.pickle"


def inventory_signature(builder) -> Signature:
    """The signature of everything ``InventoryFile.dump`` writes the inventory from."""
    env, config = builder.env, builder.config
    return signature(
        "inventory", builder.name, config.project, config.version,
        getattr(config, "html_file_suffix", None), getattr(config, "html_link_suffix", None),
        [(domain.name, sorted(domain.get_objects())) for domain in env.domains.sorted()])


def dump_kept_inventory(builder, original) -> None:
    """``dump_inventory``: nothing when the inventory's signature and file are the kept ones; else
    Sphinx's own, and its signature and file kept."""
    path = Path(builder.outdir) / INVENTORY_FILENAME
    kept_at = Path(builder.doctreedir) / INVENTORY_CACHE
    made_from = inventory_signature(builder)
    state = file_state(path)
    if state is not None and read_kept(kept_at, made_from) == state:
        return
    original()
    state = file_state(path)
    if state is not None:
        write_kept(kept_at, made_from, state)


def wrap_inventory(app: Sphinx) -> None:
    builder = app.builder
    if builder.format != "html" or not callable(getattr(builder, "dump_inventory", None)) \
            or "dump_inventory" in vars(builder):
        return
    dump = builder.dump_inventory
    builder.dump_inventory = lambda: dump_kept_inventory(builder, dump)


def setup_inventory(app: Sphinx) -> None:
    if compatible("inventory"):
        app.connect("builder-inited", wrap_inventory)
