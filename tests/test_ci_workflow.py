"""The `ci` workflow, read as GitHub reads it (no network): a pull request's cards are checked
first, its built site is uploaded, the job summary says how to open it, and the suite runs."""

from __future__ import annotations

import os
import subprocess
import tomllib
from pathlib import Path
from typing import Any

import yaml

from repo_paths import ROOT

WORKFLOW = ROOT / ".github" / "workflows" / "ci.yml"


def _workflow() -> dict[Any, Any]:
    data = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def _steps() -> list[dict[str, Any]]:
    [job] = _workflow()["jobs"].values()
    steps: list[dict[str, Any]] = job["steps"]
    return steps


def _index(predicate: Any) -> int:
    [index] = [i for i, step in enumerate(_steps()) if predicate(step)]
    return index


def test_it_runs_on_every_pull_request_and_on_main() -> None:
    triggers = _workflow()[True]  # YAML 1.1 reads the key `on` as true
    assert "pull_request" in triggers and triggers["push"]["branches"] == ["main"]


def test_make_check_comes_first_then_the_build_then_the_suite() -> None:
    check = _index(lambda step: step.get("run") == "make check")
    build = _index(lambda step: step.get("run") == "make build")
    test = _index(lambda step: step.get("run") == "make test")
    setup = _index(lambda step: step.get("run") == "make setup")
    assert setup < check < build < test


def test_a_pull_requests_built_site_is_uploaded() -> None:
    upload = _index(lambda step: str(step.get("uses", "")).startswith("actions/upload-artifact"))
    step = _steps()[upload]
    assert step["uses"] == "actions/upload-artifact@v4"
    assert step["if"] == "github.event_name == 'pull_request'"
    assert step["with"]["path"] == "site" and step["with"]["if-no-files-found"] == "error"
    assert "pull_request.number" in step["with"]["name"]
    assert _index(lambda step: step.get("run") == "make build") < upload


def test_the_job_summary_says_how_to_open_the_site_and_lists_the_changed_cards(
    tmp_path: Path,
) -> None:
    summary_step = _steps()[_index(lambda step: "GITHUB_STEP_SUMMARY" in step.get("run", ""))]
    assert summary_step["if"] == "github.event_name == 'pull_request'"
    upload = _steps()[_index(lambda step: step.get("id") == "site")]
    assert summary_step["env"]["ARTIFACT"] == upload["with"]["name"]

    # Run the step's script as the runner would, against this repository's history: the last
    # commit that added or changed a card, from its parent, lists that commit's cards.
    def git(*args: str) -> list[str]:
        done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True)
        return done.stdout.split()

    [commit] = git("log", "-1", "--format=%H", "--diff-filter=AM", "--", "docs/cards/*.yml")
    changed = git("diff-tree", "--no-commit-id", "--name-only", "-r", "--diff-filter=AM", commit)
    slugs = [Path(name).stem for name in changed if name.startswith("docs/cards/")]
    assert slugs
    summary = tmp_path / "summary.md"
    env = {
        **os.environ,
        "ARTIFACT": "site-pr-7",
        "ARTIFACT_URL": "https://github.com/o/r/actions/runs/1/artifacts/2",
        "BASE": f"{commit}~1",
        "GITHUB_STEP_SUMMARY": str(summary),
    }
    subprocess.run(["bash", "-e", "-c", summary_step["run"]], cwd=ROOT, env=env, check=True)
    text = summary.read_text(encoding="utf-8")
    assert "[`site-pr-7`](https://github.com/o/r/actions/runs/1/artifacts/2)" in text
    assert "unzip site-pr-7.zip -d preview/rankcards" in text
    assert "python -m http.server 8000" in text
    assert "<http://127.0.0.1:8000/rankcards/en/>" in text
    for slug in slugs:
        assert f"- `{slug}`: http://127.0.0.1:8000/rankcards/en/{slug}/ and " in text


# The last measured `make test` of a fresh clone (2 cores, 46 cards), on the slowest machine
# seen: bench/README.md, "Fourth session".
MEASURED_SUITE_SECONDS = 1792


def test_the_time_limit_leaves_headroom_over_the_measured_suite() -> None:
    [job] = _workflow()["jobs"].values()
    assert job["timeout-minutes"] * 60 >= 1.25 * MEASURED_SUITE_SECONDS
    bench = (ROOT / "bench" / "README.md").read_text(encoding="utf-8")
    assert f"{MEASURED_SUITE_SECONDS} s" in bench, "the measured time is recorded with its method"


def test_a_hung_test_fails_well_inside_the_time_limit() -> None:
    """pytest-timeout fails a test stuck past ``timeout`` (a Playwright wait on a promise that
    never settles has no limit of its own) and prints where it hung: the run goes on, and ends
    inside the job's limit, rather than being cut off there with nothing said."""
    pytest_options = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
        "pytest"
    ]["ini_options"]
    [job] = _workflow()["jobs"].values()
    # two tests of a worker can hang (the one and its rerun) and the run still ends in time
    assert 0 < 2 * int(pytest_options["timeout"]) < job["timeout-minutes"] * 60 / 2
