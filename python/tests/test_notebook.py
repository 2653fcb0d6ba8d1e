"""The example notebook runs from top to bottom (nbclient), so it cannot rot: it reproduces the
practical-GC paper's Fig. 7 and checks the paper's claim in its last cell."""

from __future__ import annotations

import nbformat
from nbclient import NotebookClient

from conftest import ROOT

NOTEBOOK = ROOT / "examples" / "practical-fig7-wear.ipynb"


def test_the_example_notebook_reproduces_its_figure(tmp_path, artifacts, monkeypatch):
    monkeypatch.setenv("SSDGC_EXAMPLE_STORE", str(tmp_path / "store"))
    nb = nbformat.read(NOTEBOOK, as_version=4)
    client = NotebookClient(nb, timeout=900, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOK.parent)}})
    client.execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(images) == 1, "the figure"
    text = "".join(o.get("text", "") for o in outputs)
    assert "erase-count std over" in text
    nbformat.write(nb, artifacts / NOTEBOOK.name)
    # Nothing is left beside the notebook.
    assert not (NOTEBOOK.parent / "practical-fig7-store").exists()
