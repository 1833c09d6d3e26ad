"""Mutation fuzzer: corpus v1 CRDs mutated, judged by the Go oracle (apiextensions-apiserver v0.35.0 create
path) and crdtool at 1.35; prints differences."""

import copy
import glob
import json
import random
import subprocess
import sys
import yaml

seed = int(sys.argv[1])
n_mut = int(sys.argv[2])
tag = sys.argv[3] if len(sys.argv) > 3 else str(seed)
rng = random.Random(seed)
files = sorted(glob.glob("/work/shared/corpus/crds/v1/*.yaml") + glob.glob("/work/shared/corpus-outside/current/*/crds/*.yaml"))
base = []
for f in files:
    try:
        for d in yaml.safe_load_all(open(f)):
            if (
                isinstance(d, dict)
                and d.get("kind") == "CustomResourceDefinition"
                and d.get("apiVersion") == "apiextensions.k8s.io/v1"
            ):
                base.append(d)
    except Exception:
        pass
CEL = [
    "self.size() > 0",
    "self == oldSelf",
    "has(self.foo)",
    "self.x",
    "1 +",
    "self.all(x, x > 0)",
    "size(self) < 10",
    "self.matches('^a')",
    "self.startsWith('a')",
    "int(self) > 0",
    "self.map(x, x).size() > 0",
    "type(self) == string",
    "self.exists(e, e == 'a')",
    "self.a.b.c == 1",
    "quantity('1Gi').isLessThan(quantity('2Gi'))",
    "url('http://a').getHost() == 'a'",
    "self.all(k, self[k] != '')",
    "oldSelf.size() <= self.size()",
    "isURL(self)",
    "self.lowerAscii() == self",
    "self.split(',').size() < 3",
    "ip('1.2.3.4').family() == 4",
    "cidr('10.0.0.0/8').prefixLength() == 8",
    "self.filter(x, true).size() == self.size()",
    "format.dns1123Label().validate(self).hasValue()",
    "true",
    "false",
    "self.?foo.orValue('') == ''",
    "optional.none() == optional.none()",
    "self.sort() == self",
    "self.indexOf('a') >= 0",
    "duration('1h') > duration('1m')",
    "timestamp('2020-01-01T00:00:00Z') < timestamp('2021-01-01T00:00:00Z')",
    "self.metadata.name == 'x'",
    "has(self.metadata)",
    "self.reverse() == self",
    "sets.contains([1], [1])",
]
TYPES = ["object", "array", "string", "integer", "number", "boolean", "", "foo", None]
FORMATS = [
    "int32",
    "date-time",
    "byte",
    "uuid",
    "bogus",
    "email",
    "ipv4",
    "cidr",
    "quantity",
    "duration",
    "k8s-short-name",
    "uri",
]


def rand_value(depth=0):
    r = rng.random()
    if r < 0.15:
        return rng.choice([0, 1, -1, 2**31, 2**53, 7])
    if r < 0.25:
        return rng.choice([0.5, -1.5, 1e10, 3.0])
    if r < 0.45:
        return rng.choice(["", "a", "Bad Value!", "x" * 300, "1", "true", "v1", "object", "Cluster", "Namespaced"])
    if r < 0.55:
        return rng.choice([True, False])
    if r < 0.62:
        return None
    if r < 0.80 and depth < 2:
        return [rand_value(depth + 1) for _ in range(rng.randint(0, 2))]
    if depth < 2:
        return {rng.choice(["a", "b", "type", "foo"]): rand_value(depth + 1) for _ in range(rng.randint(0, 2))}
    return "z"


def nodes(obj, path=()):
    yield path, obj
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from nodes(v, path + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from nodes(v, path + (i,))


def schema_nodes(crd):
    out = []
    spec = crd.get("spec") if isinstance(crd.get("spec"), dict) else {}
    vs = spec.get("versions") if isinstance(spec.get("versions"), list) else []
    for v_i, v in enumerate(vs):
        if not isinstance(v, dict) or not isinstance(v.get("schema"), dict):
            continue
        s = v["schema"].get("openAPIV3Schema")
        if isinstance(s, dict):
            for p, n in nodes(s, ("spec", "versions", v_i, "schema", "openAPIV3Schema")):
                if isinstance(n, dict) and ("type" in n or "properties" in n or "x-kubernetes-preserve-unknown-fields" in n):
                    out.append((p, n))
    return out


def get(o, p):
    for k in p:
        o = o[k]
    return o


def mutate(crd):
    ops = []
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        r = rng.random()
        sn = schema_nodes(crd)
        if r < 0.45 and sn:
            p, n = rng.choice(sn)
            key = rng.choice(
                [
                    "type",
                    "nullable",
                    "x-kubernetes-int-or-string",
                    "x-kubernetes-preserve-unknown-fields",
                    "x-kubernetes-embedded-resource",
                    "default",
                    "enum",
                    "format",
                    "pattern",
                    "maxLength",
                    "minLength",
                    "minimum",
                    "maximum",
                    "exclusiveMinimum",
                    "multipleOf",
                    "x-kubernetes-list-type",
                    "x-kubernetes-list-map-keys",
                    "x-kubernetes-map-type",
                    "x-kubernetes-validations",
                    "x-kubernetes-validations",
                    "x-kubernetes-validations",
                    "allOf",
                    "anyOf",
                    "oneOf",
                    "not",
                    "additionalProperties",
                    "$ref",
                    "items",
                    "uniqueItems",
                    "maxItems",
                    "maxProperties",
                    "required",
                    "description",
                    "title",
                    "example",
                    "properties",
                    "delete",
                ]
            )
            if key == "delete":
                if n:
                    k = rng.choice(list(n))
                    n.pop(k)
                    ops.append(f"del {p}/{k}")
                continue
            if key == "type":
                val = rng.choice(TYPES)
            elif key in (
                "nullable",
                "x-kubernetes-int-or-string",
                "x-kubernetes-preserve-unknown-fields",
                "x-kubernetes-embedded-resource",
                "uniqueItems",
                "exclusiveMinimum",
            ):
                val = rng.choice([True, False, True])
            elif key == "format":
                val = rng.choice(FORMATS)
            elif key == "pattern":
                val = rng.choice(["^a+$", "[", "(?i)a", "\\d+", "a{2,1}", "^[a-z]([-a-z0-9]*[a-z0-9])?$"])
            elif key in ("maxLength", "minLength", "maxItems", "maxProperties"):
                val = rng.choice([-1, 0, 5, 2**40, 1.5])
            elif key in ("minimum", "maximum", "multipleOf"):
                val = rng.choice([0, -5, 10, 0.5])
            elif key == "x-kubernetes-list-type":
                val = rng.choice(["set", "map", "atomic", "bogus"])
            elif key == "x-kubernetes-list-map-keys":
                val = rng.choice([["name"], ["a", "b"], [], ["type"]])
            elif key == "x-kubernetes-map-type":
                val = rng.choice(["granular", "atomic", "bogus"])
            elif key == "x-kubernetes-validations":
                val = [
                    dict(
                        rule=rng.choice(CEL),
                        **rng.choice(
                            [
                                {},
                                {},
                                {"message": "m"},
                                {"messageExpression": "'x' + 'y'"},
                                {"messageExpression": "1"},
                                {"reason": "FieldValueForbidden"},
                                {"reason": "Bogus"},
                                {"fieldPath": ".foo"},
                                {"fieldPath": "foo"},
                                {"optionalOldSelf": True},
                                {"message": ""},
                                {"message": "a\nb"},
                            ]
                        ),
                    )
                    for _ in range(rng.randint(1, 2))
                ]
            elif key in ("allOf", "anyOf", "oneOf"):
                val = [
                    rng.choice(
                        [
                            {"required": ["a"]},
                            {"type": "string"},
                            {"properties": {"a": {"maxLength": 1}}},
                            {"default": 1},
                            {"x-kubernetes-validations": [{"rule": "true"}]},
                        ]
                    )
                ]
            elif key == "not":
                val = rng.choice([{"required": ["a"]}, {"type": "string"}])
            elif key == "additionalProperties":
                val = rng.choice([True, False, {"type": "string"}, {"type": "integer", "default": 1}])
            elif key == "$ref":
                val = "#/definitions/foo"
            elif key == "items":
                val = rng.choice(
                    [
                        {"type": "string"},
                        [{"type": "string"}],
                        {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
                    ]
                )
            elif key == "required":
                val = rng.choice([["a"], [], ["metadata"], "a"])
            elif key == "properties":
                val = rng.choice(
                    [
                        {"metadata": {"type": "object", "properties": {"name": {"type": "string"}}}},
                        {"a": {"type": "string", "default": "x"}},
                        {},
                        {"b": {}},
                    ]
                )
            else:
                val = rand_value()
            n[key] = val
            ops.append(f"set {p}/{key}={json.dumps(val)[:80]}")
        else:
            all_nodes = [(p, n) for p, n in nodes(crd) if p and p[0] == "spec"]
            p, n = rng.choice(all_nodes)
            parent = get(crd, p[:-1])
            k = p[-1]
            rr = rng.random()
            if rr < 0.3:
                if isinstance(parent, dict):
                    parent.pop(k)
                else:
                    parent.pop(k)
                ops.append(f"del {p}")
            elif rr < 0.8:
                val = rand_value()
                parent[k] = val
                ops.append(f"set {p}={json.dumps(val)[:80]}")
            else:
                if isinstance(n, dict):
                    kk = rng.choice(
                        [
                            "bogusField",
                            "x-kubernetes-foo",
                            "default",
                            "served",
                            "storage",
                            "subresources",
                            "deprecated",
                            "selectableFields",
                            "additionalPrinterColumns",
                            "conversion",
                        ]
                    )
                    n[kk] = rand_value()
                    ops.append(f"add {p}/{kk}")
                elif isinstance(n, list) and n:
                    n.append(copy.deepcopy(n[0]))
                    ops.append(f"dup {p}")
    return ops


docs, meta = [], []
for i in range(n_mut):
    crd = copy.deepcopy(rng.choice(base))
    spec = crd.setdefault("spec", {})
    g = spec.get("group", "example.com")
    plural = (spec.get("names") or {}).get("plural", "things")
    spec["group"] = f"m{i}.{g}"
    crd["metadata"] = {"name": f"{plural}.m{i}.{g}"}
    crd.pop("status", None)
    ops = mutate(crd)
    docs.append(crd)
    meta.append(ops)
path = f"/tmp/kv/fz/m_{tag}.yaml"
with open(path, "w") as fh:
    fh.write(yaml.safe_dump_all(docs, sort_keys=False, width=10**9))
go = {}
res = subprocess.run(["/tmp/peer/bin/crdcheck", path], capture_output=True, text=True)
for l in res.stdout.splitlines():
    r = json.loads(l)
    go[r["index"]] = r
ct = json.loads(
    subprocess.run(
        ["crdtool", "validate", path, "--kubernetes-version", "1.35", "-o", "json", "--ignore", "BND"],
        capture_output=True,
        text=True,
    ).stdout
)
cts = {d["index"]: d for d in ct["documents"]}
diff = 0
for i in range(n_mut):
    g, c = go.get(i), cts.get(i)
    if g is None or c is None:
        print("MISSING", i, g is None, c is None, meta[i])
        diff += 1
        continue
    cmsg = (c.get("apiStatus") or {}).get("message", "") if c["status"] != "valid" else ""
    if (c["status"] == "valid") == g["valid"] and cmsg == g["message"]:
        continue
    gc = sorted(g.get("causes") or [])
    cc = sorted(e["message"] for e in c["errors"])
    if (c["status"] == "valid") == g["valid"] and gc == cc and gc:
        continue  # same causes, Go map order
    diff += 1
    print(f"== #{i} ops {meta[i]}")
    print("   ct:", c["status"], cmsg[:2500])
    print("   go:", g["valid"], g["message"][:2500])
print(f"seed {seed}: {n_mut} mutants, {diff} differ", file=sys.stderr)
