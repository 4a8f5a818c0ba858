"""A small edition built for a test (小样本): some witness files converted into a temporary project
with the edition's conf.py, then built with Sphinx (HTML, warnings as errors)."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def build_site(src: Path, files: list[Path]) -> Path:
    """Convert ``files`` into ``src`` (a fresh folder) and build it; the HTML folder."""
    shutil.copy(ROOT / "source" / "conf.py", src / "conf.py")
    (src / "index.md").write_text("# 仪礼\n\n```{toctree}\njudou/index\napparatus/index\n```\n", encoding="utf-8")
    convert = subprocess.run([sys.executable, "-m", "conv", "build", *map(str, files), "--out", str(src)],
                             capture_output=True, text=True, cwd=ROOT)
    assert convert.returncode == 0, convert.stderr[-3000:]
    out = src / "_build"
    build = subprocess.run([sys.executable, "-m", "sphinx", "-q", "-W", "--keep-going", "-b", "html", str(src), str(out)],
                           capture_output=True, text=True, cwd=ROOT)
    assert build.returncode == 0, build.stderr[-3000:]
    return out


def needs(*tools: str) -> None:
    """Skip the test when a program it runs is missing (the PDF's: see README, The PDF)."""
    missing = [tool for tool in tools if not shutil.which(tool)]
    if missing:
        pytest.skip(f"needs {', '.join(missing)} (see README: The PDF)")


def latexpdf(src: Path, out: Path) -> subprocess.CompletedProcess:
    """``sphinx-build -M latexpdf`` of ``src`` into ``out`` (warnings as errors); ``out/latex``
    holds the book."""
    return subprocess.run([sys.executable, "-m", "sphinx", "-M", "latexpdf", str(src), str(out),
                           "-W", "--keep-going", "-q"], capture_output=True, text=True, cwd=ROOT)


#: The root page of a small edition of both works.
BOTH_WORKS = "# 仪礼\n\n```{toctree}\n:maxdepth: 2\n\njudou/index\ntongjie/index\napparatus/index\n```\n"


def small_book(src: Path, files, root_page: str = BOTH_WORKS) -> Path:
    """Convert ``files`` (paths from the project's root) into ``src`` (a fresh folder, with the
    edition's conf.py and ``root_page``) and build the PDF: ``_build/latex``, holding ``yili.pdf``."""
    shutil.copy(ROOT / "source" / "conf.py", src / "conf.py")
    (src / "index.md").write_text(root_page, encoding="utf-8")
    subprocess.run([sys.executable, "-m", "conv", "build", *map(str, files), "--out", str(src)], cwd=ROOT,
                   check=True, capture_output=True)
    proc = latexpdf(src, src / "_build")
    latex = src / "_build" / "latex"
    assert proc.returncode == 0 and (latex / "yili.pdf").is_file(), (proc.stdout + proc.stderr)[-4000:]
    return latex


def small_project(base: Path, pages: dict[str, str], toctree: bool = False) -> Path:
    """The fixture project (real seed text, the real conf.py) plus ``pages``."""
    src = base / "src"
    shutil.copytree(ROOT / "tests" / "fixtures" / "project", src)
    (src / "conf.py").write_text(
        "from pathlib import Path\n"
        f"_conf = Path({str(ROOT / 'source' / 'conf.py')!r})\n"
        "exec(compile(_conf.read_text(encoding='utf-8'), str(_conf), 'exec'))\n", encoding="utf-8")
    for name, text in pages.items():
        (src / name).write_text(text, encoding="utf-8")
    if toctree:
        index = (src / "index.md").read_text(encoding="utf-8")
        extra = "".join(f"{Path(name).with_suffix('').as_posix()}\n" for name in pages)
        (src / "index.md").write_text(index.replace("tongjie/index\n```", "tongjie/index\n" + extra + "```"), encoding="utf-8")
    return src
