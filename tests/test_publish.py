"""The GitHub Pages workflow: it parses, uses Quarto's own actions, and every make target
it runs exists (a renamed target would otherwise break publishing silently, on a runner)."""

from __future__ import annotations

import re

import yaml

from conftest import ROOT

WORKFLOW = ROOT / ".github" / "workflows" / "publish.yml"


def _steps() -> list[dict]:
    flow = yaml.safe_load(WORKFLOW.read_text())
    assert set(flow[True]) >= {"workflow_dispatch", "schedule"}  # YAML reads the key `on` as True
    return [step for job in flow["jobs"].values() for step in job["steps"]]


def test_the_workflow_sets_up_quarto_and_publishes_with_its_actions() -> None:
    uses = [step.get("uses", "").split("@")[0] for step in _steps()]
    assert "quarto-dev/quarto-actions/setup" in uses
    publish = next(s for s in _steps() if s.get("uses", "").startswith("quarto-dev/quarto-actions/publish"))
    assert publish["with"] == {"target": "gh-pages", "render": False}, "it publishes what `make render` rendered"


def test_every_make_target_the_workflow_runs_exists() -> None:
    targets = set(re.findall(r"^([a-z][\w-]*):", (ROOT / "Makefile").read_text(), re.M))
    run = [t for step in _steps() for t in re.findall(r"\bmake (\w[\w-]*)", step.get("run", ""))]
    assert run and set(run) <= targets, set(run) - targets
