"""Loading the tables before a parallel read (conv/sphinx_ext/preload.py), in a fresh interpreter:
the tables are loaded exactly when several chunks of pages will be read by forked processes."""
from __future__ import annotations

import subprocess
import sys
import textwrap

from conftest import ROOT, project_source

SCRIPT = textwrap.dedent(
    """
    import sys
    from types import SimpleNamespace
    from conv.analyses import terms
    from conv.sphinx_ext.speed.preload import preload_before_fork

    parallel, docs = int(sys.argv[1]), sys.argv[2:]
    preload_before_fork(SimpleNamespace(parallel=parallel), None, docs)
    print(terms._load.cache_info().currsize, "tshet_uinh" in sys.modules, terms._pypinyin.cache_info().currsize > 0)
    """
)


def loaded(parallel: int, docs: list[str]) -> str:
    result = subprocess.run([sys.executable, "-c", SCRIPT, str(parallel), *docs],
                            capture_output=True, text=True, check=True)
    return result.stdout.strip()


def test_parallel_read_of_several_pages_loads_the_tables_first():
    assert loaded(2, ["judou/xiangshe", "judou/yanli"]) == "1 True True"


def test_serial_read_or_one_page_loads_nothing():
    assert loaded(1, ["judou/xiangshe", "judou/yanli"]) == "0 False False"
    assert loaded(2, ["notes/judou/xiangshe"]) == "0 False False"


GC_SCRIPT = textwrap.dedent(
    """
    import gc, sys
    from types import SimpleNamespace
    from conv.sphinx_ext.speed import preload

    app = SimpleNamespace()
    gc.set_threshold(700, 10, 10)
    preload.raise_gc_thresholds(app, None)
    during = gc.get_threshold()
    preload.restore_gc_thresholds(app, None)
    print(during, gc.get_threshold())
    """
)


def test_the_collector_runs_less_often_during_a_build_only():
    result = subprocess.run([sys.executable, "-c", GC_SCRIPT], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "(200000, 20, 20) (700, 10, 10)"


CONVERTING_BUILD = textwrap.dedent(
    """
    import gc, sys
    from sphinx.application import Sphinx

    src, out, seeds = sys.argv[1:4]
    gc.set_threshold(700, 10, 10)
    app = Sphinx(src, src, f"{out}/html", f"{out}/doctrees", "html", status=None, warning=None,
                 parallel=2, confoverrides={"yl_seeds": seeds, "yl_edition": "seeds"})
    print("during:", gc.isenabled(), gc.get_freeze_count() > 0)
    app.build()
    print("after:", gc.isenabled(), gc.get_freeze_count(), gc.get_threshold(), app.statuscode)
    """
)


def test_a_build_converting_the_seeds_gives_the_collector_back(tmp_path):
    """The collector is paused through the conversion, the heap frozen after it while the
    pages are read and written; the build ends with the collector as it found it."""
    src = project_source(tmp_path)
    result = subprocess.run([sys.executable, "-c", CONVERTING_BUILD, str(src), str(tmp_path / "out"),
                             str(ROOT / "seeds")], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.splitlines() == ["during: True True", "after: True 0 (700, 10, 10) 0"]
    assert (tmp_path / "out" / "html" / "judou" / "xiangshe.html").is_file()
