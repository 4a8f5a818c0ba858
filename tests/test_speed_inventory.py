"""``objects.inv`` kept between builds (``conv/sphinx_ext/speed/inventory.py``): Sphinx's own dump
runs when the objects, the project or the file changed, and only then. (That the kept file is the
one a clean build writes: ``tests/test_incremental.py`` compares every output file.)"""
from __future__ import annotations

import os
from types import SimpleNamespace

from conv.sphinx_ext.speed.inventory import INVENTORY_CACHE, dump_kept_inventory


class Domain:
    def __init__(self, name: str, objects: list[tuple]) -> None:
        self.name, self.objects = name, objects

    def get_objects(self):
        return iter(self.objects)


def project(tmp_path, objects: list[tuple], version: str = "1.0"):
    domains = [Domain("yl", objects), Domain("std", [("index", "仪礼", "doc", "index", "", -1)])]
    env = SimpleNamespace(domains=SimpleNamespace(sorted=lambda: iter(domains)))
    config = SimpleNamespace(project="仪礼", version=version, html_file_suffix=None, html_link_suffix=None)
    (tmp_path / "html").mkdir(exist_ok=True)
    (tmp_path / "doctrees").mkdir(exist_ok=True)
    return SimpleNamespace(name="html", env=env, config=config, outdir=tmp_path / "html",
                           doctreedir=tmp_path / "doctrees")


PASSAGES = [("judou-xiangshe-1", "乡射礼1", "passage", "judou/xiangshe", "judou-xiangshe-1", 1),
            ("judou-xiangshe-2", "乡射礼2", "passage", "judou/xiangshe", "judou-xiangshe-2", 1)]


def dump(builder, calls: list[str]) -> None:
    """Sphinx's dump, as a stand-in: writes the file, records the call."""
    def original() -> None:
        calls.append("dumped")
        (builder.outdir / "objects.inv").write_text(f"inventory {len(calls)}", encoding="utf-8")
    dump_kept_inventory(builder, original)


def test_the_same_objects_leave_the_file_as_it_is(tmp_path):
    calls: list[str] = []
    dump(project(tmp_path, PASSAGES), calls)
    assert calls == ["dumped"] and (tmp_path / "doctrees" / INVENTORY_CACHE).is_file()
    before = (tmp_path / "html" / "objects.inv").stat().st_mtime_ns
    dump(project(tmp_path, list(reversed(PASSAGES))), calls)  # the order objects come in is no change
    assert calls == ["dumped"]
    assert (tmp_path / "html" / "objects.inv").stat().st_mtime_ns == before


def test_another_object_or_version_writes_it_again(tmp_path):
    calls: list[str] = []
    dump(project(tmp_path, PASSAGES), calls)
    dump(project(tmp_path, PASSAGES[:1]), calls)
    assert calls == ["dumped"] * 2
    dump(project(tmp_path, PASSAGES[:1], version="2.0"), calls)
    assert calls == ["dumped"] * 3
    dump(project(tmp_path, PASSAGES[:1], version="2.0"), calls)
    assert calls == ["dumped"] * 3


def test_a_file_changed_or_gone_since_is_written_again(tmp_path):
    calls: list[str] = []
    dump(project(tmp_path, PASSAGES), calls)
    inventory = tmp_path / "html" / "objects.inv"
    stat = inventory.stat()
    os.utime(inventory, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    dump(project(tmp_path, PASSAGES), calls)
    assert calls == ["dumped"] * 2
    inventory.unlink()
    dump(project(tmp_path, PASSAGES), calls)
    assert calls == ["dumped"] * 3 and inventory.is_file()
