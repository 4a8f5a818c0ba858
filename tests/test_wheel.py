"""The real install (安装): a wheel of the project, installed into a fresh virtual environment, builds
the edition from outside the repository — its data files, static files and templates included."""
from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    result = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                             "--quiet", "-w", str(out), str(ROOT)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "deprecated" not in result.stderr.lower(), result.stderr
    (found,) = out.glob("yili_edition-*.whl")
    return found


def test_wheel_holds_data_static_and_templates(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for wanted in ("conv/data/works.toml", "conv/data/anchors.tsv", "conv/FORMAT.md",
                   "conv/sphinx_ext/static/yili.css", "conv/sphinx_ext/static/yili.sty",
                   "conv/sphinx_ext/templates/domainindex.html", "conv/sphinx_ext/templates/partials/icons.html",
                   "conv/sphinx_ext/speed/__init__.py",
                   "conv/sphinx_ext/speed/templates/genindex.html",
                   "conv/reader/source.py", "conv/myst/backmatter/pages.py"):
        assert wanted in names, wanted
    assert not any(name.startswith(("tests/", "bench/", "seeds/")) for name in names)


def test_installed_wheel_builds_the_edition(wheel, tmp_path):
    """A fresh venv gets the wheel (its dependencies come from this environment's site-packages,
    added as a plain path: the editable install of the checkout is not seen), then converts the
    seeds and builds the HTML in a copy of ``source/`` outside the checkout."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    (site / "zz_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps",
                    str(wheel)], check=True)
    work = tmp_path / "edition"
    generated = {"judou", "tongjie", "apparatus", ".converted"}  # the converter writes them again
    shutil.copytree(ROOT / "source", work / "source",
                    ignore=lambda folder, names: generated & set(names) if Path(folder) == ROOT / "source" else set())
    shutil.copytree(ROOT / "seeds", work / "seeds")
    where = subprocess.run([str(python), "-c", "import conv; print(conv.__file__)"], cwd=work,
                           capture_output=True, text=True, check=True).stdout
    assert where.startswith(str(site)), where
    result = subprocess.run([str(python), "-m", "sphinx", "-q", "-W", "--keep-going", "-D", "yl_seeds=../seeds",
                             "-D", "yl_edition=seeds",
                             "-b", "html", "source", "build/html"], cwd=work, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-3000:]
    page = (work / "build/html/judou/xiangshe.html").read_text(encoding="utf-8")
    assert 'id="judou-xiangshe-12"' in page
    assert (work / "build/html/_static/yili.css").is_file()
    assert "名物索引" in (work / "build/html/yl-terms.html").read_text(encoding="utf-8")
    assert "<title>浅色</title>" in page  # the icons' titles in Chinese (templates/partials/icons.html)
