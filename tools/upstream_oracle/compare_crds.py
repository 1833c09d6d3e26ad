import json
import sys
import collections

go = collections.defaultdict(list)
for l in open(sys.argv[1]):
    r = json.loads(l)
    go[(r["file"], r["name"])].append(r)
ct = json.load(open(sys.argv[2]))
n = agree = vdiff = 0
seen = set()
kinds = collections.Counter()
for d in ct["documents"]:
    if d.get("kind") != "CustomResourceDefinition" or d.get("apiVersion") != "apiextensions.k8s.io/v1":
        continue
    key = (d["file"], d.get("name") or "")
    gs = go.get(key)
    if not gs:
        print("ct-only", key, d["status"])
        continue
    g = gs.pop(0)
    seen.add(key)
    n += 1
    cmsg = (d.get("apiStatus") or {}).get("message", "") if d["status"] != "valid" else ""
    gmsg = g["message"]
    cw = sorted(w for w in (d.get("warnings") or []) if not w.startswith(("BND", "client-side kubectl apply")))
    gw = sorted(set(g.get("warnings") or []))
    if (d["status"] == "valid") == g["valid"] and cmsg == gmsg and cw == gw:
        agree += 1
        continue
    if (d["status"] == "valid") != g["valid"]:
        vdiff += 1
    print("==", d["file"].replace("/work/shared/", ""), d["index"], d.get("name"), "ct", d["status"], "go", g["valid"])
    if cmsg != gmsg:
        print("  ct:", cmsg[:3000])
        print("  go:", gmsg[:3000])
    if cw != gw:
        print("  ct warnings:", cw[:5])
        print("  go warnings:", gw[:5])
print(n, "v1 CRDs compared;", agree, "agree;", vdiff, "verdicts differ")
