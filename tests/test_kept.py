"""What the speed layer keeps between builds (留存, ``conv/sphinx_ext/speed/kept.py``) is kept under
one signature: a digest of every file of the package (code and data, ``__pycache__`` aside), the
versions of Sphinx, MyST and docutils, and the artefact's own inputs."""
from __future__ import annotations

import pickle
import shutil
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from conv.sphinx_ext.speed import kept

ROOT = Path(__file__).resolve().parents[1]

NAMES = st.sampled_from(["a.py", "b.toml", "data/c.tsv", "sphinx_ext/static/d.css", "e/f/g.py"])
TREES = st.dictionaries(NAMES, st.binary(max_size=20), min_size=1)


def write_tree(root: Path, files: dict[str, bytes]) -> Path:
    shutil.rmtree(root, ignore_errors=True)
    for name, content in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(content)
    return root


@settings(max_examples=60, deadline=None)
@given(first=TREES, second=TREES)
def test_the_code_digest_is_the_files_names_and_bytes(tmp_path_factory, first, second):
    base = tmp_path_factory.mktemp("digest")
    one = kept.code_digest(write_tree(base / "one", first))
    two = kept.code_digest(write_tree(base / "two", second))
    assert (one == two) == (first == second)


def test_pycache_is_not_code(tmp_path):
    root = write_tree(tmp_path / "pkg", {"a.py": b"x = 1\n", "data/t.toml": b"k = 1\n"})
    before = kept.code_digest(root)
    (root / "__pycache__").mkdir()
    (root / "__pycache__" / "a.cpython-311.pyc").write_bytes(b"\0compiled")
    (root / "data" / "__pycache__").mkdir()
    (root / "data" / "__pycache__" / "x.pyc").write_bytes(b"\0")
    assert kept.code_digest(root) == before
    (root / "data" / "t.toml").write_bytes(b"k = 2\n")  # a data file is code too
    assert kept.code_digest(root) != before


def test_the_package_digest_covers_every_file_of_conv():
    files = [p for p in (ROOT / "conv").rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    names = {p.relative_to(ROOT / "conv").as_posix() for p in files}
    assert {"datafiles.py", "data/terms.toml", "sphinx_ext/static/yili.css",
            "sphinx_ext/templates/domainindex.html", "FORMAT.md"} <= names
    assert kept.code_digest() == kept.code_digest(ROOT / "conv")


def test_the_signature_holds_code_versions_and_inputs(monkeypatch):
    signature = kept.signature("page", 1)
    assert signature.code == kept.code_digest()
    assert [name for name, _ in signature.libraries] == ["sphinx", "myst-parser", "docutils"]
    import docutils
    import myst_parser
    import sphinx
    assert dict(signature.libraries) == {"sphinx": sphinx.__version__, "myst-parser": myst_parser.__version__,
                                         "docutils": docutils.__version__}
    assert kept.signature("page", 1) == signature
    assert kept.signature("page", 2) != signature
    assert signature.with_inputs("x") == kept.signature("page", 1).with_inputs("x") != signature
    monkeypatch.setattr(kept, "code_digest", lambda root=None: "other code")
    assert kept.signature("page", 1) != signature
    monkeypatch.undo()
    monkeypatch.setattr(kept, "library_versions", lambda: (("sphinx", "10.0"),))
    assert kept.signature("page", 1) != signature


def test_a_value_kept_under_another_signature_is_not_read(tmp_path, monkeypatch):
    path = tmp_path / "kept.pickle"
    kept.write_kept(path, kept.signature("in"), {"value": 1})
    assert kept.read_kept(path, kept.signature("in")) == {"value": 1}
    assert kept.read_kept(path, kept.signature("other")) is None
    monkeypatch.setattr(kept, "code_digest", lambda root=None: "changed code")
    assert kept.read_kept(path, kept.signature("in")) is None


def test_every_file_a_build_keeps_carries_the_signature(fixture_html):
    """The navigation (``yl-nav/``), the search index entries, the index of terms (its content
    and its page) and the general index a build kept: each file starts with a signature of this
    package and these libraries."""
    files = sorted(p for p in fixture_html.doctreedir.rglob("*.pickle") if p.name != "environment.pickle")
    assert any(p.parent.name == "yl-nav" for p in files)
    names = {p.name for p in files}
    for name in ("yl-search-entries.pickle", "yl-terms-content.pickle", "yl-terms-page.pickle",
                 "yl-genindex.pickle"):
        assert name in names, name
    for path in files:
        with path.open("rb") as handle:
            signature = pickle.load(handle)
        assert isinstance(signature, kept.Signature), path
        assert (signature.code, signature.libraries) == (kept.code_digest(), kept.library_versions()), path


def test_a_new_build_sees_the_package_changed_since_the_last(tmp_path, monkeypatch):
    """The package is digested once per build, not once per kept value: within a build the
    signature's code is one value; the next build (its ``config-inited``) digests the files
    again, so a file changed between two builds in one process makes the kept values stale."""
    root = write_tree(tmp_path / "pkg", {"a.py": b"x = 1\n", "data/t.toml": b"k = 1\n"})
    monkeypatch.setattr(kept, "PACKAGE_DIR", root)
    kept.forget_code_digest()
    before = kept.signature("page")
    (root / "data" / "t.toml").write_bytes(b"k = 2\n")
    assert kept.signature("page") == before  # the same build
    kept.forget_code_digest(None, None)  # as Sphinx calls it at a new build's config-inited
    after = kept.signature("page")
    assert after != before and after.code == kept.code_digest(root)
    monkeypatch.undo()
    kept.forget_code_digest()
    assert kept.code_digest() == kept.code_digest(ROOT / "conv")
