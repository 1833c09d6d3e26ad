"""`crdtool default` end to end (real start-up through a subprocess)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import yaml

SAMPLES = Path(__file__).resolve().parents[2] / "samples"
CRONTAB = str(SAMPLES / "crontab-v1.yaml")
MULTIVERSION = str(SAMPLES / "crontab-multiversion-v1.yaml")

CR = """\
# my cron
apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: my-new-cron-object  # the name
  bogus: 1
spec:
  cronSpec: "* * * * */5"  # every 5 days
  image: my-awesome-cron-image
  extra: true
---
apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: two
spec:
  replicas: 3
"""


def crdtool(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "crdtool", "default", *args],
        input=stdin, capture_output=True, text=True, timeout=60, check=False,
    )


def assert_clean(out: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in out.stdout + out.stderr
    assert "unexpected error" not in out.stderr


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_yaml_output_is_pruned_and_defaulted(tmp_path: Path) -> None:
    out = crdtool("--crd", CRONTAB, str(write(tmp_path, "cr.yaml", CR)))
    assert out.returncode == 0, out.stderr
    docs = list(yaml.safe_load_all(out.stdout))
    assert docs == [
        {
            "apiVersion": "stable.example.com/v1",
            "kind": "CronTab",
            "metadata": {"name": "my-new-cron-object"},
            "spec": {"cronSpec": "* * * * */5", "image": "my-awesome-cron-image", "replicas": 1},
        },
        {"apiVersion": "stable.example.com/v1", "kind": "CronTab", "metadata": {"name": "two"}, "spec": {"replicas": 3}},
    ]
    # key order is kept (sort_keys=False): apiVersion first, the default last
    assert out.stdout.startswith("apiVersion: stable.example.com/v1\nkind: CronTab\n")
    assert "\n---\n" in out.stdout
    assert out.stderr == ""


def test_json_output_is_one_list(tmp_path: Path) -> None:
    out = crdtool("--crd", CRONTAB, "--output", "json", str(write(tmp_path, "cr.yaml", CR)))
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert [d["metadata"]["name"] for d in data] == ["my-new-cron-object", "two"]
    assert data[0]["spec"]["replicas"] == 1


def test_no_prune_keeps_unknown_fields(tmp_path: Path) -> None:
    out = crdtool("--crd", CRONTAB, "--output", "json", "--no-prune", str(write(tmp_path, "cr.yaml", CR)))
    assert out.returncode == 0, out.stderr
    first = json.loads(out.stdout)[0]
    assert first["spec"]["extra"] is True
    assert first["metadata"]["bogus"] == 1
    assert first["spec"]["replicas"] == 1


def test_show_pruned_lists_paths_on_stderr(tmp_path: Path) -> None:
    path = write(tmp_path, "cr.yaml", CR)
    out = crdtool("--crd", CRONTAB, "--show-pruned", str(path))
    assert out.returncode == 0, out.stderr
    assert out.stderr.splitlines() == [f"{path}:6:3: pruned metadata.bogus", f"{path}:10:3: pruned spec.extra"]
    assert "bogus" not in out.stdout


def test_in_place_rewrites_atomically_and_keeps_comments(tmp_path: Path) -> None:
    path = write(tmp_path, "cr.yaml", CR)
    out = crdtool("--crd", CRONTAB, "--in-place", str(path))
    assert out.returncode == 0, out.stderr
    assert out.stdout == ""
    text = path.read_text()
    assert text.startswith("# my cron\n")
    assert "# the name" in text and "# every 5 days" in text
    assert "bogus" not in text and "extra" not in text
    assert next(iter(yaml.safe_load_all(text)))["spec"]["replicas"] == 1
    assert not [p for p in tmp_path.iterdir() if p.name != "cr.yaml"]  # no temporary file left
    # idempotent: a second run changes nothing
    assert crdtool("--crd", CRONTAB, "--in-place", str(path)).returncode == 0
    assert path.read_text() == text


def test_in_place_json_file(tmp_path: Path) -> None:
    obj = {"apiVersion": "stable.example.com/v1", "kind": "CronTab", "metadata": {"name": "x"}, "spec": {}}
    path = write(tmp_path, "cr.json", json.dumps(obj))
    out = crdtool("--crd", CRONTAB, "--in-place", str(path))
    assert out.returncode == 0, out.stderr
    assert json.loads(path.read_text())["spec"] == {"replicas": 1}


def test_object_version_picks_the_schema(tmp_path: Path) -> None:
    out = crdtool("--crd", MULTIVERSION, "--output", "json", str(SAMPLES / "crontab-cr-v2.yaml"))
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)[0]["apiVersion"] == "stable.example.com/v2"
    ok = crdtool("--crd", MULTIVERSION, "--version", "v2", str(SAMPLES / "crontab-cr-v2.yaml"))
    assert ok.returncode == 0, ok.stderr


def test_stdin(tmp_path: Path) -> None:
    out = crdtool("--crd", CRONTAB, "--output", "json", "-", stdin=CR)
    assert out.returncode == 0, out.stderr
    assert len(json.loads(out.stdout)) == 2


def test_another_kind_of_the_crds_group_passes_through_with_a_note(tmp_path: Path) -> None:
    other = CR.replace("kind: CronTab", "kind: Other", 1)
    path = write(tmp_path, "cr.yaml", other)
    out = crdtool("--crd", CRONTAB, str(path))
    assert_clean(out)
    assert out.returncode == 0
    docs = list(yaml.safe_load_all(out.stdout))
    assert docs[0] == yaml.safe_load(other.split("---")[0])  # unchanged: not pruned, not defaulted
    assert docs[1]["spec"] == {"replicas": 3}
    assert out.stderr == (
        f'{path}:2: note: Other in group "stable.example.com" is not defined by any CRD given '
        f"(crontabs.stable.example.com ({CRONTAB}:3); kinds of that group: CronTab); passed through unchanged\n"
    )


def test_unknown_and_unserved_versions_are_exit_2(tmp_path: Path) -> None:
    path = write(tmp_path, "cr.yaml", CR.replace("stable.example.com/v1", "stable.example.com/v3"))
    out = crdtool("--crd", CRONTAB, str(path))
    assert_clean(out)
    assert out.returncode == 2
    assert 'no matches for kind "CronTab" in version "stable.example.com/v3"' in out.stderr
    unserved = Path(MULTIVERSION).read_text().replace("served: true\n      storage: false", "served: false\n      storage: false", 1)
    crd = write(tmp_path, "crd.yaml", unserved)
    out = crdtool("--crd", str(crd), str(SAMPLES / "crontab-cr-v1.yaml"))
    assert out.returncode == 2
    assert 'version "v1" of CRD crontabs.stable.example.com is not served (served: v2)' in out.stderr


def test_version_mismatch_is_exit_2() -> None:
    out = crdtool("--crd", MULTIVERSION, "--version", "v1", str(SAMPLES / "crontab-cr-v2.yaml"))
    assert out.returncode == 2
    assert "is not the requested version" in out.stderr


def test_bad_input_names_file_and_line(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.yaml", "apiVersion: stable.example.com/v1\nkind: [unclosed\n")
    out = crdtool("--crd", CRONTAB, str(path))
    assert_clean(out)
    assert out.returncode == 2
    assert out.stderr.startswith(f"{path}:2:")
    assert out.stdout == ""


def test_crd_file_without_a_crd_is_exit_2() -> None:
    out = crdtool("--crd", str(SAMPLES / "crontab-cr-v1.yaml"), str(SAMPLES / "crontab-cr-v1.yaml"))
    assert_clean(out)
    assert out.returncode == 2
    assert "no apiextensions.k8s.io/v1 or v1beta1 CustomResourceDefinition found" in out.stderr


def test_missing_crd_file_is_exit_2(tmp_path: Path) -> None:
    out = crdtool("--crd", str(tmp_path / "nope.yaml"), str(SAMPLES / "crontab-cr-v1.yaml"))
    assert_clean(out)
    assert out.returncode == 2
    assert str(tmp_path / "nope.yaml") in out.stderr


def test_a_v1_list_is_defaulted_item_by_item(tmp_path: Path) -> None:
    items = [
        {"apiVersion": "stable.example.com/v1", "kind": "CronTab", "metadata": {"name": "a"}, "spec": {"x": 1}},
        {"apiVersion": "stable.example.com/v1", "kind": "CronTab", "metadata": {"name": "b"}, "spec": {"replicas": 2}},
    ]
    path = write(tmp_path, "list.yaml", yaml.safe_dump({"apiVersion": "v1", "kind": "List", "items": items}))
    out = crdtool("--crd", CRONTAB, "--output", "json", "--show-pruned", str(path))
    assert out.returncode == 0, out.stderr
    [result] = json.loads(out.stdout)
    assert [i["spec"] for i in result["items"]] == [{"replicas": 1}, {"replicas": 2}]
    assert out.stderr.strip().endswith("pruned items[0].spec.x")


STATUS_CRD = """\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: jobs.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: jobs, singular: job, kind: Job, listKind: JobList}
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {n: {type: integer, default: 1}}}
          status: {type: object, properties: {phase: {type: string, default: Pending}}}
"""


def test_status_is_kept_and_defaulted(tmp_path: Path) -> None:
    # customresource_handler.go: decoding prunes and defaults status like any field; only the
    # create strategy (PrepareForCreate) drops it, and `default` stops before it
    crd = write(tmp_path, "crd.yaml", STATUS_CRD)
    cr = write(tmp_path, "cr.yaml", "apiVersion: example.com/v1\nkind: Job\nmetadata: {name: j}\nstatus: {extra: 1}\n")
    out = crdtool("--crd", str(crd), "--output", "json", str(cr))
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == [
        {"apiVersion": "example.com/v1", "kind": "Job", "metadata": {"name": "j"}, "status": {"phase": "Pending"}}
    ]


NUMBER_CRD = STATUS_CRD.replace("n: {type: integer, default: 1}", "small: {type: number}, big: {type: number}")


def test_floats_are_printed_as_go_encoding_json_prints_them(tmp_path: Path) -> None:
    crd = write(tmp_path, "crd.yaml", NUMBER_CRD)
    cr = write(tmp_path, "cr.yaml", "apiVersion: example.com/v1\nkind: Job\nmetadata: {name: j}\nspec: {small: 1.0e-7, big: 1.0e20}\n")
    out = crdtool("--crd", str(crd), "--output", "json", str(cr))
    assert out.returncode == 0, out.stderr
    assert '"small": 1e-7' in out.stdout and '"big": 100000000000000000000' in out.stdout
    out = crdtool("--crd", str(crd), str(cr))
    assert out.returncode == 0, out.stderr
    assert "  small: 1e-7\n" in out.stdout and "  big: 100000000000000000000\n" in out.stdout


CRDS_AND_EXAMPLES = """\
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  a: b
---
apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: cron
spec:
  cronSpec: "* * * * */5"
---
apiVersion: example.com/v1
kind: Widget
metadata:
  name: w
spec: {}
"""

WIDGET_CRD = """\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: string, default: small}
"""


def test_each_object_gets_its_own_crd_among_all_crd_documents(tmp_path: Path) -> None:
    """A multi-CRD --crd file and an examples file holding a ConfigMap (the issue's case)."""
    crds = write(tmp_path, "crds.yaml", Path(CRONTAB).read_text() + "---\n" + WIDGET_CRD)
    examples = write(tmp_path, "examples.yaml", CRDS_AND_EXAMPLES)
    out = crdtool("--crd", str(crds), "--output", "json", str(examples))
    assert_clean(out)
    assert out.returncode == 0, out.stderr
    assert out.stderr == ""
    configmap, cron, widget = json.loads(out.stdout)
    assert configmap == {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "settings"}, "data": {"a": "b"}}
    assert cron["spec"] == {"cronSpec": "* * * * */5", "replicas": 1}  # the CronTab CRD's default
    assert widget["spec"] == {"size": "small"}  # the second CRD of the file
    # the same with the CRDs in two files, and --only-custom-resources leaving out the ConfigMap
    widget_file = write(tmp_path, "widget.yaml", WIDGET_CRD)
    out = crdtool("--crd", CRONTAB, "--crd", str(widget_file), "--only-custom-resources", str(examples))
    assert out.returncode == 0, out.stderr
    assert [d["kind"] for d in yaml.safe_load_all(out.stdout)] == ["CronTab", "Widget"]


def test_an_object_that_cannot_be_defaulted_does_not_hide_the_others(tmp_path: Path) -> None:
    crds = write(tmp_path, "crds.yaml", Path(CRONTAB).read_text() + "---\n" + WIDGET_CRD)
    examples = write(tmp_path, "examples.yaml", CRDS_AND_EXAMPLES.replace("example.com/v1\nkind: Widget", "example.com/v9\nkind: Widget"))
    out = crdtool("--crd", str(crds), str(examples))
    assert_clean(out)
    assert out.returncode == 2
    assert out.stderr == (
        f'{examples}:15: no matches for kind "Widget" in version "example.com/v9": '
        'CRD widgets.example.com has no version "v9" (versions: v1)\n'
    )
    assert [d["kind"] for d in yaml.safe_load_all(out.stdout)] == ["ConfigMap", "CronTab"]
    # --in-place leaves a file with such an object alone
    before = examples.read_text()
    assert crdtool("--crd", str(crds), "--in-place", str(examples)).returncode == 2
    assert examples.read_text() == before


def test_no_custom_resource_at_all_names_every_crd(tmp_path: Path) -> None:
    crds = write(tmp_path, "crds.yaml", Path(CRONTAB).read_text() + "---\n" + WIDGET_CRD)
    cm = write(tmp_path, "cm.yaml", CRDS_AND_EXAMPLES.split("---")[0])
    out = crdtool("--crd", str(crds), str(cm))
    assert out.returncode == 0
    assert out.stderr == (
        f"crdtool default: no custom resource of crontabs.stable.example.com ({crds}:3), "
        f"widgets.example.com ({crds}:47) among the inputs; every document is passed through unchanged\n"
    )
    assert yaml.safe_load(out.stdout)["kind"] == "ConfigMap"
