"""The speed layer is optional (提速层可选): without ``conv.sphinx_ext.speed`` the edition builds the
same pages and the same search index, and no feature module imports it (``lint-imports``)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _build(tmp: Path, name: str, speed: bool, src: Path) -> Path:
    conf = tmp / f"conf-{name}"
    conf.mkdir()
    text = (ROOT / "source/conf.py").read_text(encoding="utf-8")
    if not speed:
        text += '\nextensions.remove("conv.sphinx_ext.speed")\n'
    (conf / "conf.py").write_text(text, encoding="utf-8")
    out = tmp / name
    result = subprocess.run([sys.executable, "-m", "sphinx", "-q", "-W", "--keep-going", "-j", "2",
                             "-c", str(conf), "-d", str(tmp / f"doctrees-{name}"), "-b", "html",
                             str(src), str(out)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-3000:]
    return out


def test_without_speed_the_same_html(tmp_path, edition_source):
    """On the seeds' edition (``edition_source``)."""
    fast, plain = _build(tmp_path, "fast", True, edition_source), _build(tmp_path, "plain", False, edition_source)
    pages = sorted(p.relative_to(fast) for p in fast.rglob("*") if p.suffix in (".html", ".js", ".css", ".inv"))
    assert len(pages) > 30
    assert sorted(p.relative_to(plain) for p in plain.rglob("*") if p.suffix in (".html", ".js", ".css", ".inv")) == pages
    differ = [str(rel) for rel in pages if (fast / rel).read_bytes() != (plain / rel).read_bytes()]
    assert differ == []


def test_no_feature_module_imports_speed():
    result = subprocess.run([str(Path(sys.executable).with_name("lint-imports"))], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-3000:]
    assert "0 broken" in result.stdout
