"""An ``--override`` by a reference answer earns no credit in a learner's grade, whatever the path
given (red team: `grader grade --target /tmp/x R --override R=solutions/r_recall.py` got full
credit: the identical-copy refusal was skipped for any path inside solutions/)."""

from grader.course.catalog import ROOT
from grader.engine import runner


def _statuses(tmp_path, override):
    target = tmp_path / "answers"
    target.mkdir(exist_ok=True)
    res = runner.grade(target, only=["R"], overrides={"R": override}, incremental=False)["R"]
    return {kp.status for kp in res.key_points}


def test_the_reference_by_its_own_path_earns_nothing(tmp_path):
    assert _statuses(tmp_path, ROOT / "solutions" / "r_recall.py") == {"identical"}


def test_a_re_commented_copy_elsewhere_earns_nothing(tmp_path):
    copy = tmp_path / "mine.py"
    copy.write_text(
        "# my answer\n" + (ROOT / "solutions" / "r_recall.py").read_text(encoding="utf-8").replace("\n\n", "\n\n\n")
    )
    assert _statuses(tmp_path, copy) == {"identical"}
