"""Built-in kinds: wrong JSON types at random places; decode errors from crdtool (1.35) against kube-apiserver's
JSON serializer (k8s.io/api v0.35.0, Go)."""

import copy
import glob
import json
import random
import subprocess
import sys
import yaml

seed = int(sys.argv[1])
n = int(sys.argv[2])
rng = random.Random(seed)
docs = []
srcs = (
    glob.glob("/work/main/tests/cases/builtin/kubectl-validate/*.yaml")
    + glob.glob("/work/shared/corpus-outside/current/*/crs/*.yaml")
    + glob.glob("/work/main/samples/**/*.yaml", recursive=True)
)
KINDS = {
    "Pod",
    "Deployment",
    "StatefulSet",
    "DaemonSet",
    "Job",
    "CronJob",
    "Service",
    "ConfigMap",
    "Secret",
    "Role",
    "ClusterRole",
    "RoleBinding",
    "ClusterRoleBinding",
    "ServiceAccount",
    "Ingress",
    "NetworkPolicy",
    "PersistentVolumeClaim",
    "PersistentVolume",
    "HorizontalPodAutoscaler",
    "PodDisruptionBudget",
    "ValidatingWebhookConfiguration",
    "MutatingWebhookConfiguration",
    "ReplicaSet",
    "Namespace",
    "StorageClass",
    "PriorityClass",
    "ValidatingAdmissionPolicy",
    "ValidatingAdmissionPolicyBinding",
}
for f in srcs:
    try:
        for d in yaml.safe_load_all(open(f)):
            if (
                isinstance(d, dict)
                and d.get("kind") in KINDS
                and isinstance(d.get("apiVersion"), str)
                and "." not in d["apiVersion"].split("/")[0]
                or (isinstance(d, dict) and d.get("kind") in KINDS and d.get("apiVersion", "").split("/")[0].endswith("k8s.io"))
            ):
                docs.append(d)
    except Exception:
        pass
# a Pod with volumes and probes, to reach the embedded structs
docs.append(
    yaml.safe_load("""
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
  - name: c
    image: i
    livenessProbe: {httpGet: {path: /h, port: 80}, initialDelaySeconds: 3}
    readinessProbe: {exec: {command: [a]}}
    env: [{name: e, valueFrom: {configMapKeyRef: {name: cm, key: k}}}]
    envFrom: [{secretRef: {name: s}}]
  ephemeralContainers: [{name: e, image: i}]
  volumes:
  - {name: a, configMap: {name: cm, items: [{key: k, path: p}]}}
  - {name: b, secret: {secretName: s}}
  - {name: c, projected: {sources: [{configMap: {name: x}}, {secret: {name: y}}]}}
  - {name: d, hostPath: {path: /x}}
""")
)


def nodes(o, p=()):
    yield p, o
    if isinstance(o, dict):
        for k, v in o.items():
            yield from nodes(v, p + (k,))
    elif isinstance(o, list):
        for i, v in enumerate(o):
            yield from nodes(v, p + (i,))


VALS = [5, "x", True, [], {}, [1], {"a": 1}, 1.5, -1, "", ["s"], 2**40]
out, meta = [], []
for i in range(n):
    d = copy.deepcopy(rng.choice(docs))
    cands = [(p, v) for p, v in nodes(d) if p and p[0] not in ("apiVersion", "kind")]
    p, v = rng.choice(cands)
    parent = d
    for k in p[:-1]:
        parent = parent[k]
    val = rng.choice(VALS)
    parent[p[-1]] = val
    meta.append((d.get("kind"), p, val))
    out.append(d)
path = f"/tmp/kv/bi/m_{seed}.yaml"
yaml.safe_dump_all(out, open(path, "w"), sort_keys=False, width=10**9)
go = [
    json.loads(l)["message"]
    for l in subprocess.run(["/tmp/peer/bin/builtincheck", path], capture_output=True, text=True).stdout.splitlines()
]
ct = json.loads(
    subprocess.run(
        ["crdtool", "validate", path, "-o", "json", "--kubernetes-version", "1.35", "--ignore", "BND", "--ignore-missing-crds"],
        capture_output=True,
        text=True,
    ).stdout
)["documents"]
diff = 0
for i, (g, c) in enumerate(zip(go, ct)):
    cm = (c.get("apiStatus") or {}).get("message", "") or ""
    gdec = "cannot be handled as" in g
    cdec = "cannot be handled as" in cm
    if not gdec and not cdec:
        continue
    if g == cm:
        continue
    diff += 1
    print(f"== #{i} {meta[i]}\n   ct: {c['status']} {cm[:600]}\n   go: {g[:600]}")
print(f"seed {seed}: {n} docs ({len(go)} go, {len(ct)} ct), {diff} decode messages differ", file=sys.stderr)
