"""Every page of the book executes in a real Jupyter kernel, without Quarto, on the
quick profile, and shows what it promises: its charts, its tables, its inline numbers.
A new chapter in chapters/ is picked up here without editing this file."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import ROOT
from howfast.notebook import chapters, execute_chapter

PAGES = chapters(ROOT)


def test_the_book_has_pages() -> None:
    assert ROOT / "index.qmd" in PAGES and len(PAGES) >= 2


@pytest.mark.parametrize("page", PAGES, ids=[p.stem for p in PAGES])
def test_page_executes_and_shows_its_results(page: Path, isolated: dict[str, Path]) -> None:
    done = execute_chapter(page, timeout=600)
    assert done.problems == []
    assert done.inline, "numbers in the prose must come from inline expressions"
    if page.parent.name == "chapters":
        assert done.charts(), "a chapter draws at least one chart"
        assert done.outputs("tbl-"), "a chapter shows at least one table"
        for label, spec in done.charts().items():
            rows = sum(len(v) for v in spec.get("datasets", {}).values())
            assert rows > 0, f"{label} has no data"
        stored = list((isolated["results"]).rglob("*.parquet"))
        assert stored, "a chapter stores its measurements"
    assert list(isolated["scratch"].iterdir()) == [], "scratch files left behind"


def test_cells_get_the_profiles_time(monkeypatch: pytest.MonkeyPatch) -> None:
    from howfast.profiles import PROFILES

    assert PROFILES["full"].cell_timeout > PROFILES["quick"].cell_timeout > 0
    with pytest.raises(ValueError, match="timeout must be a positive"):
        execute_chapter(ROOT / "index.qmd", timeout=0)


def test_the_kernel_listens_on_no_port(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The chapter kernel is reached over Unix sockets (no TCP port, no warning about it),
    also when it runs in another directory than ours, as every chapter's kernel does."""
    from nbclient import NotebookClient

    seen: list[str] = []
    real = NotebookClient.create_kernel_manager

    def spy(self):  # the manager nbclient starts the kernel with
        km = real(self)
        seen.append(km.transport)
        return km

    monkeypatch.setattr(NotebookClient, "create_kernel_manager", spy)
    page = tmp_path / "chapters" / "page.qmd"
    page.parent.mkdir()
    page.write_text("# A page\n\n```{python}\nimport os\nhere = os.getcwd()\n```\n\nIn `{python} here`.\n")
    done = execute_chapter(page, timeout=60)
    assert done.inline == {"here": str(page.parent)}
    assert seen == ["ipc"]
